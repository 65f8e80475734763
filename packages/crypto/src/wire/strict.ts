import { CryptoError } from '../errors.js';

/*
 * Strict reading of versioned JSON wire objects: exact key set (unknown fields are rejected so
 * that a newer peer's additions are never silently dropped), a numeric `v`, and typed field
 * readers that report which field is wrong. Protocol-agnostic: the ECDSA codecs use it too.
 */

/** Header every wire object starts with. */
export interface WireHeader {
  v: number;
  ciphersuite: string;
}

/**
 * Checks that `value` is a plain object whose keys are exactly `required` plus any of
 * `optional`, and returns it typed as a record.
 */
export function strictObject(
  value: unknown,
  name: string,
  required: readonly string[],
  optional: readonly string[] = [],
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CryptoError('INVALID_ENCODING', `${name} must be a JSON object`);
  }
  const obj = value as Record<string, unknown>;
  const allowed = new Set([...required, ...optional]);
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) throw new CryptoError('INVALID_ENCODING', `${name} has unknown field "${key}"`);
  }
  for (const key of required) {
    if (!(key in obj) || obj[key] === undefined) throw new CryptoError('INVALID_ENCODING', `${name} is missing field "${key}"`);
  }
  return obj;
}

/**
 * Reads the header of a versioned object: UNSUPPORTED_VERSION when `v` is not `version`,
 * INVALID_ENCODING when `ciphersuite` is not `ciphersuite`.
 */
export function checkHeader(obj: Record<string, unknown>, name: string, version: number, ciphersuite: string): void {
  if (obj.v !== version) {
    throw new CryptoError('UNSUPPORTED_VERSION', `${name}.v must be ${version}, got ${JSON.stringify(obj.v) ?? 'undefined'}`);
  }
  if (obj.ciphersuite !== ciphersuite) {
    throw new CryptoError('INVALID_ENCODING', `${name}.ciphersuite must be "${ciphersuite}", got ${JSON.stringify(obj.ciphersuite) ?? 'undefined'}`);
  }
}

/** Reads an integer field that must be one of `allowed`. */
export function readEnumInt<T extends number>(obj: Record<string, unknown>, field: string, allowed: readonly T[]): T {
  const value = obj[field];
  if (typeof value !== 'number' || !allowed.includes(value as T)) {
    throw new CryptoError('INVALID_ENCODING', `${field} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value) ?? 'undefined'}`);
  }
  return value as T;
}
