import { randomBytes } from '@noble/hashes/utils.js';
import { Fn, ORDER } from '../common/group.js';
import { prgScalars } from '../ot/prg.js';

/*
 * Multiplicative-to-additive conversion from random OT [HMRT21], as in cait-sith's mta.rs.
 * Sender input a, receiver input b, κ = 384 random OTs (256 + 128 statistical bits):
 *  - sender: random δ_i, sends c_i = (v⁰_i + δ_i + a, v¹_i + δ_i − a);
 *  - receiver: χ_2..χ_κ from a seed, χ_1 solved so that Σ χ_i·(−1)^{t_i} = b; sends (χ_1, seed);
 *  - outputs α = −Σ χ_i·δ_i (sender) and β = Σ χ_i·(c_{t_i,i} − v^{t_i}_i) (receiver), α + β = a·b.
 * A cheating sender can shift the result; triple generation catches that with C = L(0).
 * The receiver's message does not depend on c, so it travels with the OT extension message.
 */

export const MTA_OTS = 384;

/**
 * x when t = 0, y when t = 1, by a mask rather than a branch on the secret choice bit t (and
 * without the field multiplications an arithmetic select would cost on every OT).
 */
const select = (t: number, x: bigint, y: bigint): bigint => x ^ ((x ^ y) & -BigInt(t));
const sign = (t: number, x: bigint): bigint => select(t, x, Fn.neg(x)); // (−1)^t·x

// The sums below (of 383 or 384 terms) are accumulated as plain integers and reduced mod n once,
// with n − x standing for −x: the same values mod n, with one reduction instead of one or two per
// term (those reductions were a fifth of the MtAs' CPU).

export interface MtaReceiverPart {
  chi1: bigint;
  seed: Uint8Array;
  /** Σ χ_i·v_i, kept so the final step needs no OT outputs (small persisted state). */
  sumChiV: bigint;
}

export function mtaReceiverPrepare(t: readonly number[], v: readonly bigint[], b: bigint): MtaReceiverPart {
  const seed = randomBytes(32);
  const chi = prgScalars('mta chi', seed, MTA_OTS - 1);
  let acc = 0n;
  for (let i = 1; i < MTA_OTS; i++) acc += select(t[i]!, chi[i - 1]!, ORDER - chi[i - 1]!);
  const chi1 = sign(t[0]!, Fn.sub(b, Fn.create(acc)));
  let sumChiV = chi1 * v[0]!;
  for (let i = 1; i < MTA_OTS; i++) sumChiV += chi[i - 1]! * v[i]!;
  return { chi1, seed, sumChiV: Fn.create(sumChiV) };
}

export function mtaReceiverFinish(t: readonly number[], part: MtaReceiverPart, c0: readonly bigint[], c1: readonly bigint[]): bigint {
  const chi = prgScalars('mta chi', part.seed, MTA_OTS - 1);
  let beta = part.chi1 * select(t[0]!, c0[0]!, c1[0]!);
  for (let i = 1; i < MTA_OTS; i++) beta += chi[i - 1]! * select(t[i]!, c0[i]!, c1[i]!);
  return Fn.sub(Fn.create(beta), part.sumChiV);
}

export function mtaSend(
  v0: readonly bigint[],
  v1: readonly bigint[],
  a: bigint,
  chi1: bigint,
  seed: Uint8Array,
): { c0: bigint[]; c1: bigint[]; alpha: bigint } {
  const delta = prgScalars('mta delta', randomBytes(32), MTA_OTS);
  const chi = prgScalars('mta chi', seed, MTA_OTS - 1);
  const c0 = new Array<bigint>(MTA_OTS);
  const c1 = new Array<bigint>(MTA_OTS);
  const minusA = ORDER - a;
  let alpha = chi1 * delta[0]!;
  for (let i = 0; i < MTA_OTS; i++) {
    const d = delta[i]!;
    c0[i] = Fn.create(v0[i]! + d + a);
    c1[i] = Fn.create(v1[i]! + d + minusA);
    if (i > 0) alpha += chi[i - 1]! * d;
  }
  delta.fill(0n);
  return { c0, c1, alpha: Fn.neg(Fn.create(alpha)) };
}
