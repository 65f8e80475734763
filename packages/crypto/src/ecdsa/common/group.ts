import { mulAddUnsafe } from '@noble/curves/abstract/curve.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToNumberBE, randomBytes } from '@noble/curves/utils.js';

/*
 * The one place the ECDSA protocols name their curve. Everything else goes through these
 * bindings, so the protocol code reads as group operations and never re-implements noble's
 * point or scalar arithmetic.
 */

export const Point = secp256k1.Point;
export type Pt = typeof secp256k1.Point.BASE;
export const Fn = secp256k1.Point.Fn;
export const G = secp256k1.Point.BASE;
export const ORDER = Fn.ORDER;
export const CURVE_NAME = 'secp256k1';

/** Uniform non-zero scalar: 48 random bytes reduced mod n (bias < 2^-128). */
export function randomScalar(): bigint {
  for (;;) {
    const s = Fn.create(bytesToNumberBE(randomBytes(48)));
    if (s !== 0n) return s;
  }
}

/** s·G on noble's precomputed base table; 0 gives the identity (noble's multiply rejects 0). */
export function mulG(s: bigint): Pt {
  return s === 0n ? Point.ZERO : G.multiply(s);
}

/** s·G for a public s (an opened value): variable time on noble's base table. */
export function mulGPublic(s: bigint): Pt {
  return G.multiplyUnsafe(Fn.create(s));
}

/**
 * Whether P_k = s_k·G for every k, for secret s_k and public P_k, with one constant-time
 * multiplication instead of one per k: Σ r_k·P_k = (Σ r_k·s_k)·G for fresh random 128-bit r_k.
 * The left side has only public inputs (the points, and r_k chosen after the peer committed to
 * everything), so it is a variable-time multi-scalar multiplication. If some P_j ≠ s_j·G, the
 * difference is a non-zero element of a prime-order group and the sums agree for at most one
 * value of r_j mod n: the batch passes with probability <= 2^-128. Returns the index of the first
 * k that fails (each re-checked on its own, only after the batch failed), or -1.
 */
export function firstFailingBaseCheck(points: readonly Pt[], secrets: readonly bigint[]): number {
  if (points.length !== secrets.length) throw new RangeError('points and secrets differ in length');
  if (points.length === 0) return -1;
  const r = points.map(() => bytesToNumberBE(randomBytes(16)) + 1n);
  const lhs = mulAddUnsafe(Point, [...points], r);
  const sum = secrets.reduce((acc, s, k) => Fn.add(acc, Fn.mul(r[k]!, s)), 0n);
  if (lhs.equals(mulG(sum))) return -1;
  return points.findIndex((p, k) => !p.equals(mulG(secrets[k]!)));
}

/**
 * A copy of a public point with a window table, for many constant-time multiplications by
 * secret scalars with the same base (the base-OT receiver's x_i·Y): noble's table is built once
 * (about 20 plain multiplications' worth) and each multiplication then costs a fraction of an
 * untabled constant-time one. The multiplication stays noble's constant-time, blinded path.
 */
export function withTable(p: Pt, windowBits = 6): Pt {
  return Point.fromAffine(p.toAffine()).precompute(windowBits, false);
}

/** Constant-time-in-noble's-sense s·P for a secret s. */
export function mulSecret(p: Pt, s: bigint): Pt {
  return s === 0n ? Point.ZERO : p.multiply(s);
}

/** s·P for public s and P (variable time). */
export function mulPublic(p: Pt, s: bigint): Pt {
  return p.multiplyUnsafe(Fn.create(s));
}

/**
 * Big-endian bytes as an integer, read 8 bytes at a time. Same value as noble's
 * bytesToNumberBE, which goes through a hex string: the OT extension and the MtA turn about
 * 5000 hash and PRG outputs per triple into scalars, and the hex route was ~5% of a triple.
 * Lengths that are not a multiple of 8 take noble's route.
 */
export function bigIntFromBytes(bytes: Uint8Array): bigint {
  if (bytes.length % 8 !== 0) return bytesToNumberBE(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0n;
  for (let i = 0; i < bytes.length; i += 8) n = (n << 64n) | view.getBigUint64(i);
  return n;
}

/** Reduces big-endian bytes mod n. Used on hash outputs of >= 32 bytes (bias < 2^-127). */
export function reduceBytes(bytes: Uint8Array): bigint {
  return Fn.create(bigIntFromBytes(bytes));
}

export function scalarBytes(s: bigint): Uint8Array {
  return Fn.toBytes(s);
}

/**
 * Lagrange coefficient at 0 of identifier `i` within `ids` (the Shamir x-coordinates).
 * For our fixed set {1, 2}: λ_1 = 2 and λ_2 = −1.
 */
export function lagrangeAtZero(ids: readonly number[], i: number): bigint {
  let num = 1n;
  let den = 1n;
  for (const j of ids) {
    if (j === i) continue;
    num = Fn.mul(num, Fn.create(BigInt(j)));
    den = Fn.mul(den, Fn.sub(Fn.create(BigInt(j)), Fn.create(BigInt(i))));
  }
  return Fn.mul(num, Fn.inv(den));
}
