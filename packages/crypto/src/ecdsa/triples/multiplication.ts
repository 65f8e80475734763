import { randomBytes } from '@noble/hashes/utils.js';
import { bitAt } from '../ot/bit-matrix.js';
import { Fn } from '../common/group.js';
import { MTA_OTS, type MtaReceiverPart, mtaReceiverFinish, mtaReceiverPrepare, mtaSend } from './mta.js';
import { type OtExtReceiverMessage, choiceBits, extensionRows, otExtReceive, otExtSend } from '../ot/ot-extension.js';

/*
 * Two-party multiplication of additive inputs for a whole batch of triples (cait-sith's
 * multiplication.rs, batched): party i holds (a_i, b_i) = (e_i(0), f_i(0)) per triple and ends
 * with l0_i such that l0_0 + l0_1 = (a_0 + a_1)(b_0 + b_1). Per triple two MtAs of 384 OTs:
 * MtA 2k multiplies a_sender·b_receiver and MtA 2k+1 multiplies b_sender·a_receiver; row block
 * [384·u, 384·u + 384) of the single OT extension serves MtA u.
 */

export const OTS_PER_TRIPLE = 2 * MTA_OTS;

export interface MulInput {
  a: bigint;
  b: bigint;
}

export interface MulReceiverMessage {
  ot: OtExtReceiverMessage;
  chi1: bigint[];
  seeds: Uint8Array[];
}

export interface MulReceiverState {
  choiceSeed: Uint8Array;
  parts: MtaReceiverPart[];
}

const bitsOf = (choice: Uint32Array, from: number): number[] => {
  const t = new Array<number>(MTA_OTS);
  for (let i = 0; i < MTA_OTS; i++) t[i] = bitAt(choice, from + i);
  return t;
};

export function mulRows(count: number): number {
  return extensionRows(count * OTS_PER_TRIPLE);
}

export function mulReceiverRound(
  k0: readonly Uint8Array[],
  k1: readonly Uint8Array[],
  sid: Uint8Array,
  inputs: readonly MulInput[],
): { msg: MulReceiverMessage; state: MulReceiverState } {
  const rows = mulRows(inputs.length);
  const choiceSeed = randomBytes(32);
  const choice = choiceBits(choiceSeed, rows);
  const { msg, outputs } = otExtReceive(k0, k1, sid, choice, rows, inputs.length * OTS_PER_TRIPLE);
  const parts: MtaReceiverPart[] = [];
  inputs.forEach((inp, k) => {
    for (let h = 0; h < 2; h++) {
      const from = (2 * k + h) * MTA_OTS;
      parts.push(mtaReceiverPrepare(bitsOf(choice, from), outputs.slice(from, from + MTA_OTS), h === 0 ? inp.b : inp.a));
    }
  });
  outputs.fill(0n);
  choice.fill(0);
  return { msg: { ot: msg, chi1: parts.map((p) => p.chi1), seeds: parts.map((p) => p.seed) }, state: { choiceSeed, parts } };
}

/** `c` holds, per MtA u and OT i, the pair (c0, c1) at 2·(384·u + i). */
export function mulReceiverFinish(state: MulReceiverState, inputs: readonly MulInput[], c: readonly bigint[]): bigint[] {
  const choice = choiceBits(state.choiceSeed, mulRows(inputs.length));
  const out = inputs.map((inp, k) => {
    let l0 = Fn.mul(inp.a, inp.b);
    for (let h = 0; h < 2; h++) {
      const u = 2 * k + h;
      const from = u * MTA_OTS;
      const c0: bigint[] = [];
      const c1: bigint[] = [];
      for (let i = 0; i < MTA_OTS; i++) {
        c0.push(c[2 * (from + i)]!);
        c1.push(c[2 * (from + i) + 1]!);
      }
      l0 = Fn.add(l0, mtaReceiverFinish(bitsOf(choice, from), state.parts[u]!, c0, c1));
    }
    return l0;
  });
  choice.fill(0);
  return out;
}

export function mulSenderRound(
  delta: Uint8Array,
  keys: readonly Uint8Array[],
  sid: Uint8Array,
  inputs: readonly MulInput[],
  msg: MulReceiverMessage,
  receiverId: number,
): { c: bigint[]; l0: bigint[] } {
  const used = inputs.length * OTS_PER_TRIPLE;
  const { v0, v1 } = otExtSend(delta, keys, sid, msg.ot, mulRows(inputs.length), used, receiverId);
  const c: bigint[] = new Array<bigint>(2 * used);
  const l0 = inputs.map((inp, k) => {
    let acc = Fn.mul(inp.a, inp.b);
    for (let h = 0; h < 2; h++) {
      const u = 2 * k + h;
      const from = u * MTA_OTS;
      const r = mtaSend(v0.slice(from, from + MTA_OTS), v1.slice(from, from + MTA_OTS), h === 0 ? inp.a : inp.b, msg.chi1[u]!, msg.seeds[u]!);
      for (let i = 0; i < MTA_OTS; i++) {
        c[2 * (from + i)] = r.c0[i]!;
        c[2 * (from + i) + 1] = r.c1[i]!;
      }
      acc = Fn.add(acc, r.alpha);
    }
    return acc;
  });
  v0.fill(0n);
  v1.fill(0n);
  return { c, l0 };
}
