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

/** Constant-time-in-noble's-sense s·P for a secret s. */
export function mulSecret(p: Pt, s: bigint): Pt {
  return s === 0n ? Point.ZERO : p.multiply(s);
}

/** s·P for public s and P (variable time). */
export function mulPublic(p: Pt, s: bigint): Pt {
  return p.multiplyUnsafe(Fn.create(s));
}

/** Reduces big-endian bytes mod n. Used on hash outputs of >= 32 bytes (bias < 2^-127). */
export function reduceBytes(bytes: Uint8Array): bigint {
  return Fn.create(bytesToNumberBE(bytes));
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
