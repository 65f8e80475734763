import { CryptoError } from '../errors.js';

/*
 * Hex as it crosses HTTP: lowercase, no 0x prefix, even length. Decoding is strict so that each
 * value has exactly one accepted spelling (no case variants to slip past signature checks or
 * replay caches keyed by the string).
 */

const NOT_LOWER_HEX = /[^0-9a-f]/;

/**
 * Whether `value` is lowercase hex of even length. A linear scan for a bad character, not an
 * anchored `^(?:[0-9a-f]{2})*$`: that pattern keeps a backtracking entry per byte, and on the
 * megabyte blobs of triple generation V8 threw "Maximum call stack size exceeded" from inside
 * RegExp.test, depending on the regexp engine's tier at the time (so an honest message failed
 * now and then).
 */
export function isLowerHex(value: string): boolean {
  return value.length % 2 === 0 && !NOT_LOWER_HEX.test(value);
}

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * Decodes lowercase hex; `length` (in bytes) is enforced when given. Errors are
 * INVALID_ENCODING and name `field`.
 */
export function fromHex(value: unknown, field: string, length?: number): Uint8Array {
  if (typeof value !== 'string') throw new CryptoError('INVALID_ENCODING', `${field} must be a hex string, got ${typeof value}`);
  if (!isLowerHex(value)) throw new CryptoError('INVALID_ENCODING', `${field} must be lowercase hex of even length`);
  if (length !== undefined && value.length !== length * 2) {
    throw new CryptoError('INVALID_ENCODING', `${field} must be ${length} bytes (${length * 2} hex chars), got ${value.length / 2}`);
  }
  const out = new Uint8Array(value.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(value.slice(2 * i, 2 * i + 2), 16);
  return out;
}
