import { CryptoError } from './errors.js';

/**
 * Argument checks shared by every public function. They run before any noble call so that a
 * caller passing the wrong type gets a CryptoError that names the argument, not a TypeError from
 * deep inside the curve code.
 */

/** Throws INVALID_INPUT unless `value` is a Uint8Array (of `length` bytes when given). */
export function assertBytes(value: unknown, name: string, length?: number): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new CryptoError('INVALID_INPUT', `${name} must be a Uint8Array, got ${describe(value)}`);
  }
  if (length !== undefined && value.length !== length) {
    throw new CryptoError('INVALID_INPUT', `${name} must be ${length} bytes, got ${value.length}`);
  }
}

/** Throws INVALID_INPUT unless `value` is an integer in [min, max]. */
export function assertInteger(value: unknown, name: string, min: number, max: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new CryptoError('INVALID_INPUT', `${name} must be an integer in [${min}, ${max}], got ${describe(value)}`);
  }
}

/** Throws INVALID_INPUT unless `value` is a non-null, non-array object. */
export function assertObject(value: unknown, name: string): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CryptoError('INVALID_INPUT', `${name} must be an object, got ${describe(value)}`);
  }
}

/** Short description of a value for error messages; never prints the contents (may be secret). */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length})`;
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (typeof value === 'number') return `number ${value}`;
  return typeof value;
}
