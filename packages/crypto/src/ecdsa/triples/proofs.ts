import { concatBytes } from '@noble/hashes/utils.js';
import { Fn, G, type Pt, mulG, mulSecret, randomScalar } from '../common/group.js';
import type { Transcript } from '../common/transcript.js';

/*
 * Maurer/Schnorr proofs made non-interactive with Fiat-Shamir over a forked transcript:
 *  - dlog:   knowledge of x with X = x·G;
 *  - dlogeq: one x with X0 = x·G and X1 = x·H (H public).
 * A proof is (e, s): the verifier recomputes the commitment from s and e and re-derives e,
 * so the proof is 64 bytes and verification needs no decoding of a commitment point.
 */

export interface Proof {
  e: bigint;
  s: bigint;
}

const enc = (p: Pt) => (p.is0() ? new Uint8Array(33) : p.toBytes(true));

export function proveDlog(t: Transcript, X: Pt, x: bigint): Proof {
  const k = randomScalar();
  const K = mulG(k);
  const e = t.append('dlog', enc(X), enc(K)).challenge('dlog');
  return { e, s: Fn.add(k, Fn.mul(e, x)) };
}

export function verifyDlog(t: Transcript, X: Pt, proof: Proof): boolean {
  // K = s·G − e·X, computed with one Strauss–Shamir walk (all values public).
  let K: Pt;
  try {
    K = combine(G, proof.s, X, Fn.neg(proof.e));
  } catch {
    return false;
  }
  return t.append('dlog', enc(X), enc(K)).challenge('dlog') === proof.e;
}

export function proveDlogEq(t: Transcript, X0: Pt, H: Pt, X1: Pt, x: bigint): Proof {
  const k = randomScalar();
  const K0 = mulG(k);
  const K1 = mulSecret(H, k);
  const e = t.append('dlogeq', concatBytes(enc(X0), enc(H), enc(X1)), concatBytes(enc(K0), enc(K1))).challenge('dlogeq');
  return { e, s: Fn.add(k, Fn.mul(e, x)) };
}

export function verifyDlogEq(t: Transcript, X0: Pt, H: Pt, X1: Pt, proof: Proof): boolean {
  let K0: Pt;
  let K1: Pt;
  try {
    const minusE = Fn.neg(proof.e);
    K0 = combine(G, proof.s, X0, minusE);
    K1 = combine(H, proof.s, X1, minusE);
  } catch {
    return false;
  }
  const e = t.append('dlogeq', concatBytes(enc(X0), enc(H), enc(X1)), concatBytes(enc(K0), enc(K1))).challenge('dlogeq');
  return e === proof.e;
}

/**
 * a·P + b·Q for public values; handles the zero scalars noble's multiply refuses. With P = G the
 * two halves run apart: G.multiplyUnsafe walks noble's precomputed base table (no doublings),
 * cheaper than the shared Strauss–Shamir walk, which builds fresh tables for G on every call.
 */
function combine(P: Pt, a: bigint, Q: Pt, b: bigint): Pt {
  if (P === G) return G.multiplyUnsafe(a).add(Q.multiplyUnsafe(b));
  if (a === 0n) return b === 0n || Q.is0() ? P.subtract(P) : Q.multiplyUnsafe(b);
  if (b === 0n || Q.is0()) return P.multiplyUnsafe(a);
  return P.mulAddUnsafe(a, Q, b);
}

export const proofBytes = (p: Proof): Uint8Array => concatBytes(Fn.toBytes(p.e), Fn.toBytes(p.s));
