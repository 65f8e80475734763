import { CryptoError } from '../../errors.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { checkHeader, strictObject } from '../../wire/strict.js';
import { isLowerHex } from '../../wire/hex.js';
import { Fn, ORDER, Point, type Pt } from './group.js';

/*
 * JSON codecs of the ECDSA wire messages and persisted states. Scalars are 32-byte big-endian
 * hex and must be canonical (< n); points are 33-byte compressed SEC1 hex and must be on the
 * curve, except the commitments inside proofs and the points of a party's own state, which are
 * 65-byte uncompressed (decoded often; see decUncompressedPoint, encStatePoint); long vectors
 * travel as one hex blob of fixed-size items. Every decoder names the offending field and, for
 * messages, the sender as culprit.
 */

export const ECDSA_WIRE_VERSION = 1;
export const ECDSA_CIPHERSUITE = 'ECDSA-SECP256K1-CAIT-SITH-2P';

/** The 33-byte encoding we accept for the identity, only where the protocol requires it (L(0)). */
const IDENTITY_HEX = '00'.repeat(33);

export const toHex = (b: Uint8Array): string => bytesToHex(b);
export const encScalar = (s: bigint): string => toHex(Fn.toBytes(s));
export const encPoint = (p: Pt): string => (p.is0() ? IDENTITY_HEX : p.toHex(true));
export const encBytes = toHex;
/** 33-byte compressed encoding, all zeros for the identity (only L(0) may be the identity). */
export const pointBytes = (p: Pt): Uint8Array => (p.is0() ? new Uint8Array(33) : p.toBytes(true));

/** Context for decoding: who sent the data, so a failure names them. */
export interface Dec {
  culprits: readonly number[];
}

function fail(code: 'INVALID_ENCODING' | 'INVALID_SCALAR' | 'INVALID_POINT', msg: string, d: Dec): never {
  throw new CryptoError(code, msg, d.culprits);
}

function withCulprit<T>(d: Dec, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof CryptoError && e.culprits.length === 0) throw new CryptoError(e.code, e.message, d.culprits);
    throw e;
  }
}


/**
 * Same rules as wire/hex.ts fromHex (lowercase, even length, exact size) but decoded with noble's
 * hexToBytes: the OT and MtA blobs are megabytes per batch and the per-byte parseInt was a
 * measurable share of a step.
 */
export function decBytes(v: unknown, field: string, len: number | undefined, d: Dec): Uint8Array {
  checkHex(v, field, len, d);
  return hexToBytes(v);
}

function checkHex(v: unknown, field: string, len: number | undefined, d: Dec): asserts v is string {
  if (typeof v !== 'string') fail('INVALID_ENCODING', `${field} must be a hex string, got ${typeof v}`, d);
  if (len !== undefined && v.length !== 2 * len) fail('INVALID_ENCODING', `${field} must be ${len} bytes, got ${v.length / 2}`, d);
  if (!isLowerHex(v)) fail('INVALID_ENCODING', `${field} must be lowercase hex of even length`, d);
}


export function decScalar(v: unknown, field: string, d: Dec): bigint {
  const b = decBytes(v, field, 32, d);
  try {
    return Fn.fromBytes(b);
  } catch {
    return fail('INVALID_SCALAR', `${field} is not a canonical scalar (< n)`, d);
  }
}

export function decPoint(v: unknown, field: string, d: Dec, allowIdentity = false): Pt {
  if (allowIdentity && v === IDENTITY_HEX) return Point.ZERO;
  const b = decBytes(v, field, 33, d);
  try {
    return Point.fromBytes(b);
  } catch {
    return fail('INVALID_POINT', `${field} is not a valid compressed secp256k1 point`, d);
  }
}

/**
 * A 65-byte uncompressed SEC1 point (0x04 ‖ x ‖ y), on the curve. Used for the commitments
 * inside proofs: tens of them per triple, and decoding one costs a curve-equation check instead
 * of the square root a compressed point needs.
 */
export function decUncompressedPoint(v: unknown, field: string, d: Dec): Pt {
  const b = decBytes(v, field, 65, d);
  try {
    if (b[0] !== 0x04) throw new Error('not uncompressed');
    return Point.fromBytes(b);
  } catch {
    return fail('INVALID_POINT', `${field} is not a valid uncompressed secp256k1 point`, d);
  }
}

/**
 * Points a party keeps in its own state between steps are written uncompressed (65 bytes): a
 * state is decoded at every later step, and decoding an uncompressed point is a curve-equation
 * check where a compressed one costs a square root. The compressed form (and 33 zero bytes for
 * the identity, where allowed) is still read, from states written before.
 */
export const encStatePoint = (p: Pt): string => (p.is0() ? IDENTITY_HEX : p.toHex(false));

export function decStatePoint(v: unknown, field: string, d: Dec, allowIdentity = false): Pt {
  return typeof v === 'string' && v.length === 130 ? decUncompressedPoint(v, field, d) : decPoint(v, field, d, allowIdentity);
}

export function decArray<T>(v: unknown, field: string, len: number, d: Dec, item: (x: unknown, f: string) => T): T[] {
  if (!Array.isArray(v)) fail('INVALID_ENCODING', `${field} must be an array`, d);
  if (v.length !== len) fail('INVALID_ENCODING', `${field} must have ${len} items, got ${v.length}`, d);
  return v.map((x, i) => item(x, `${field}[${i}]`));
}

/**
 * A hex blob of `count` canonical 32-byte scalars. Each item is read straight from its 64 hex
 * digits (the blob was checked as lowercase hex of the exact length): the MtA blobs carry 1536
 * scalars per triple, and going through bytes and back to hex per item was a visible share of
 * a step.
 */
export function decScalarBlob(v: unknown, field: string, count: number, d: Dec): bigint[] {
  checkHex(v, field, count * 32, d);
  const out = new Array<bigint>(count);
  for (let i = 0; i < count; i++) {
    const s = BigInt(`0x${v.slice(64 * i, 64 * i + 64)}`);
    if (s >= ORDER) fail('INVALID_SCALAR', `${field} item ${i} is not a canonical scalar (< n)`, d);
    out[i] = s;
  }
  return out;
}

/** Scalars (each < n) as one blob of 32-byte big-endian items, in the hex decScalarBlob reads. */
export function encScalarBlob(items: readonly bigint[]): string {
  let out = '';
  for (const s of items) out += s.toString(16).padStart(64, '0');
  return out;
}

export function decInt(v: unknown, field: string, min: number, max: number, d: Dec): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    fail('INVALID_ENCODING', `${field} must be an integer in [${min}, ${max}]`, d);
  }
  return v;
}

/**
 * Strict envelope of an ECDSA message: exact keys, `v`, ciphersuite and `type`. Returns the
 * object for the field readers.
 */
export function decMessage(v: unknown, type: string, fields: readonly string[], d: Dec): Record<string, unknown> {
  return withCulprit(d, () => {
    const obj = strictObject(v, type, ['v', 'ciphersuite', 'type', ...fields]);
    checkHeader(obj, type, ECDSA_WIRE_VERSION, ECDSA_CIPHERSUITE);
    if (obj.type !== type) throw new CryptoError('INVALID_ENCODING', `expected message type "${type}", got ${JSON.stringify(obj.type)}`);
    return obj;
  });
}

export const header = <T extends string>(type: T) => ({ v: ECDSA_WIRE_VERSION, ciphersuite: ECDSA_CIPHERSUITE, type }) as const;

/** The message must belong to this session (CHECK_FAILED naming the sender otherwise). */
export function expectSession(v: unknown, expected: string, d: Dec): void {
  const sid = toHex(decBytes(v, 'session_id', 32, d));
  if (sid !== expected) throw new CryptoError('CHECK_FAILED', 'session_id does not match this session', d.culprits);
}
