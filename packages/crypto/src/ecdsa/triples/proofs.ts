import { mulAddUnsafe, pippenger } from '@noble/curves/abstract/curve.js';
import { bytesToNumberBE, randomBytes } from '@noble/curves/utils.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { Fn, G, Point, type Pt, mulG, mulSecret, randomScalar } from '../common/group.js';
import type { Transcript } from '../common/transcript.js';

/*
 * Maurer/Schnorr proofs made non-interactive with Fiat-Shamir over a forked transcript:
 *  - dlog:   knowledge of x with X = x·G;
 *  - dlogeq: one x with X0 = x·G and X1 = x·H (H public).
 * A proof is (e, s) plus the prover's commitments K (dlog) or K0, K1 (dlogeq). From (e, s)
 * alone a verifier recomputes each K as s·G − e·X and re-derives e: one proof at a time, about
 * one variable-base multiplication per proof. With the K's it checks e = H(…, K) (a hash) and
 * all equations s·B = K + e·X of a step together in one multi-scalar multiplication
 * (`ProofBatch`). A peer that sends only (e, s) (an earlier SDK) is still verified, one by one.
 */

export interface Proof {
  e: bigint;
  s: bigint;
  /** The prover's commitments, when sent: [K] for dlog, [K0, K1] for dlogeq. */
  K?: Pt[];
}

const enc = (p: Pt) => (p.is0() ? new Uint8Array(33) : p.toBytes(true));
const dlogChallenge = (t: Transcript, X: Pt, K: Pt) => t.append('dlog', enc(X), enc(K)).challenge('dlog');
const dlogEqChallenge = (t: Transcript, X0: Pt, H: Pt, X1: Pt, K0: Pt, K1: Pt) =>
  t.append('dlogeq', concatBytes(enc(X0), enc(H), enc(X1)), concatBytes(enc(K0), enc(K1))).challenge('dlogeq');

export function proveDlog(t: Transcript, X: Pt, x: bigint): Proof {
  const k = randomScalar();
  const K = mulG(k);
  const e = dlogChallenge(t, X, K);
  return { e, s: Fn.add(k, Fn.mul(e, x)), K: [K] };
}

export function proveDlogEq(t: Transcript, X0: Pt, H: Pt, X1: Pt, x: bigint): Proof {
  const k = randomScalar();
  const K0 = mulG(k);
  const K1 = mulSecret(H, k);
  const e = dlogEqChallenge(t, X0, H, X1, K0, K1);
  return { e, s: Fn.add(k, Fn.mul(e, x)), K: [K0, K1] };
}

/** One proof on its own from (e, s): K = s·G − e·X, then the challenge. */
export function verifyDlog(t: Transcript, X: Pt, proof: Proof): boolean {
  let K: Pt;
  try {
    K = combine(G, proof.s, X, Fn.neg(proof.e));
  } catch {
    return false;
  }
  return dlogChallenge(t, X, K) === proof.e;
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
  return dlogEqChallenge(t, X0, H, X1, K0, K1) === proof.e;
}

/** s·B = K + e·X: the equation behind each K of a proof. */
interface Equation {
  B: Pt;
  s: bigint;
  K: Pt;
  e: bigint;
  X: Pt;
}

interface Queued {
  label: string;
  failed: boolean;
  equations: Equation[];
}

/**
 * The proofs of one protocol step, checked together. Each proof that carries its K's costs a
 * challenge hash when queued; `firstFailure` then checks all their equations at once with
 * fresh random 128-bit weights r_j: Σ r_j·(s_j·B_j − K_j − e_j·X_j) = O. Every value in it is
 * public (the proofs, the statements, and weights drawn after the peer sent everything), so the
 * multi-scalar multiplication is variable time. If some equation fails, its difference is a
 * non-zero element of a prime-order group and the weighted sum vanishes for at most one value
 * of its weight mod n: a bad proof passes with probability <= 2^-128. Only after a failed batch
 * is each proof checked on its own, to name the first one at fault.
 */
export class ProofBatch {
  private readonly queued: Queued[] = [];

  dlog(t: Transcript, X: Pt, proof: Proof, label: string): void {
    if (proof.K === undefined) {
      this.queued.push({ label, failed: !verifyDlog(t, X, proof), equations: [] });
      return;
    }
    const [K] = proof.K as [Pt];
    const failed = proof.K.length !== 1 || dlogChallenge(t, X, K) !== proof.e;
    this.queued.push({ label, failed, equations: failed ? [] : [{ B: G, s: proof.s, K, e: proof.e, X }] });
  }

  dlogEq(t: Transcript, X0: Pt, H: Pt, X1: Pt, proof: Proof, label: string): void {
    if (proof.K === undefined) {
      this.queued.push({ label, failed: !verifyDlogEq(t, X0, H, X1, proof), equations: [] });
      return;
    }
    const [K0, K1] = proof.K as [Pt, Pt];
    const failed = proof.K.length !== 2 || dlogEqChallenge(t, X0, H, X1, K0, K1) !== proof.e;
    const { e, s } = proof;
    this.queued.push({ label, failed, equations: failed ? [] : [{ B: G, s, K: K0, e, X: X0 }, { B: H, s, K: K1, e, X: X1 }] });
  }

  /** The label of the first queued proof that fails, or undefined when all hold. */
  firstFailure(): string | undefined {
    const pending = this.queued.filter((q) => !q.failed && q.equations.length > 0);
    if (pending.length > 0 && !allHold(pending.flatMap((q) => q.equations))) {
      for (const q of pending) q.failed = !q.equations.every(holds);
    }
    return this.queued.find((q) => q.failed)?.label;
  }
}

function holds(q: Equation): boolean {
  try {
    return combine(q.B, q.s, q.X, Fn.neg(q.e)).equals(q.K);
  } catch {
    return false;
  }
}

/** Noble's Pippenger pays off from a few hundred points; below that its Strauss–Shamir walk. */
const PIPPENGER_FROM = 192;

function allHold(equations: readonly Equation[]): boolean {
  let g = 0n;
  const points: Pt[] = [];
  const scalars: bigint[] = [];
  for (const q of equations) {
    const r = bytesToNumberBE(randomBytes(16)) + 1n;
    const rs = Fn.mul(r, q.s);
    if (q.B === G) {
      g = Fn.add(g, rs);
    } else {
      points.push(q.B);
      scalars.push(rs);
    }
    points.push(q.K, q.X);
    scalars.push(Fn.neg(r), Fn.neg(Fn.mul(r, q.e)));
  }
  try {
    const msm = points.length >= PIPPENGER_FROM ? pippenger(Point, points, scalars) : mulAddUnsafe(Point, points, scalars);
    return (g === 0n ? msm : msm.add(G.multiplyUnsafe(g))).is0();
  } catch {
    return false;
  }
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
