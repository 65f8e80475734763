import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { CryptoError } from '../../errors.js';
import { BASE_OTS } from './base-ot.js';
import { bytesToWords, transposeColumns, wordsToBytes } from './bit-matrix.js';
import { chiShifts, clmulAcc } from './gf128.js';
import { reduceBytes } from '../common/group.js';
import { prg } from './prg.js';
import { u32 } from '../common/transcript.js';

/*
 * Correlated + random OT extension (KOS15, as in cait-sith's correlated_ot_extension and
 * random_ot_extension), for one batch of m rows out of the 128 base OTs.
 *
 * Receiver (holds K⁰_j, K¹_j): T⁰_j = PRG(K⁰_j), T¹_j = PRG(K¹_j), sends U_j = T⁰_j ⊕ T¹_j ⊕ b
 * for its random choice bits b. Sender (holds Δ, K^{Δ_j}_j): Q_j = PRG(K^{Δ_j}_j) ⊕ Δ_j·U_j, so
 * row i of Q is t_i ⊕ b_i·Δ.
 *
 * KOS check: each column is cut into μ = m/128 chunks; with χ_1..χ_μ ∈ GF(2^128) the receiver
 * sends x = Σ b_c·χ_c and t_j = Σ T⁰_{j,c}·χ_c, and the sender requires q_j = t_j ⊕ Δ_j·x for
 * every column j. The 256 extra rows beyond the used ones are random and mask b in x.
 *
 * Deviation from cait-sith, for round trips: χ is not a seed sent by the sender after U but is
 * derived by Fiat-Shamir from the session id and U itself, so U, x and t travel in one message
 * and the sender checks and answers in the same step. χ still depends on U, which the receiver
 * must fix first; grinding U for a favourable χ costs ~2^128 hashes.
 *
 * Random OT outputs: v⁰_i = H(i, q_i), v¹_i = H(i, q_i ⊕ Δ) for the sender and H(i, t_i) = v^{b_i}_i
 * for the receiver, as scalars.
 */

export const KOS_PADDING = 2 * BASE_OTS;

/** Rows of the extension for `used` OTs: rounded up to a multiple of 128, plus 256 masking rows. */
export function extensionRows(used: number): number {
  return Math.ceil(used / BASE_OTS) * BASE_OTS + KOS_PADDING;
}

function column(key: Uint8Array, sid: Uint8Array, j: number, words: number): Uint32Array {
  return bytesToWords(prg('ot-ext column', concatBytes(sid, key), j, words * 4));
}

function chiValues(sid: Uint8Array, u: Uint8Array, chunks: number): Uint32Array {
  const seed = sha256(concatBytes(utf8ToBytes('svc/ecdsa kos chi v1'), sid, u32(u.length), u));
  return bytesToWords(prg('kos chi', seed, 0, chunks * 16));
}

/** Hashes row i (4 words at rows[4i]) to a scalar, optionally XORed with Δ. */
function rowHasher(sid: Uint8Array): (rows: Uint32Array, i: number, delta?: Uint32Array) => bigint {
  const rsid = sha256(concatBytes(utf8ToBytes('svc/ecdsa rot hash v1'), sid));
  const buf = new Uint8Array(52);
  buf.set(rsid, 0);
  const dv = new DataView(buf.buffer);
  return (rows, i, delta) => {
    dv.setUint32(32, i, false);
    for (let w = 0; w < 4; w++) dv.setUint32(36 + 4 * w, (rows[4 * i + w]! ^ (delta ? delta[w]! : 0)) >>> 0, true);
    // SHA-256 output reduced mod n: n > 2^256 − 2^129, so the bias is below 2^-127.
    return reduceBytes(sha256(buf));
  };
}

export interface OtExtReceiverMessage {
  u: Uint8Array;
  kosX: Uint8Array;
  kosT: Uint8Array;
}

export function otExtReceive(
  k0: readonly Uint8Array[],
  k1: readonly Uint8Array[],
  sid: Uint8Array,
  choice: Uint32Array,
  rows: number,
  used: number,
): { msg: OtExtReceiverMessage; outputs: bigint[] } {
  const words = rows / 32;
  const chunks = rows / BASE_OTS;
  const t0 = new Uint32Array(BASE_OTS * words);
  const uw = new Uint32Array(BASE_OTS * words);
  for (let j = 0; j < BASE_OTS; j++) {
    const a = column(k0[j]!, sid, j, words);
    const b = column(k1[j]!, sid, j, words);
    t0.set(a, j * words);
    for (let w = 0; w < words; w++) uw[j * words + w] = a[w]! ^ b[w]! ^ choice[w]!;
    b.fill(0);
  }
  const u = wordsToBytes(uw);
  const chi = chiValues(sid, u, chunks);
  const x = new Uint32Array(8);
  const t = new Uint32Array(8 * BASE_OTS);
  for (let c = 0; c < chunks; c++) {
    const sh = chiShifts(chi, 4 * c);
    clmulAcc(x, 0, choice, 4 * c, sh);
    for (let j = 0; j < BASE_OTS; j++) clmulAcc(t, 8 * j, t0, j * words + 4 * c, sh);
  }
  const rowsT = transposeColumns(t0, words);
  t0.fill(0);
  const h = rowHasher(sid);
  const outputs = new Array<bigint>(used);
  for (let i = 0; i < used; i++) outputs[i] = h(rowsT, i);
  rowsT.fill(0);
  return { msg: { u, kosX: wordsToBytes(x), kosT: wordsToBytes(t) }, outputs };
}

/**
 * Sender side: rebuilds Q, runs the KOS check (CHECK_FAILED naming the receiver on failure)
 * and returns the pairs (v⁰_i, v¹_i) of the first `used` rows.
 */
export function otExtSend(
  delta: Uint8Array,
  keys: readonly Uint8Array[],
  sid: Uint8Array,
  msg: OtExtReceiverMessage,
  rows: number,
  used: number,
  receiverId: number,
): { v0: bigint[]; v1: bigint[] } {
  const words = rows / 32;
  const chunks = rows / BASE_OTS;
  if (msg.u.length !== BASE_OTS * words * 4 || msg.kosX.length !== 32 || msg.kosT.length !== 32 * BASE_OTS) {
    throw new CryptoError('INVALID_ENCODING', 'OT extension message has the wrong size', [receiverId]);
  }
  const uw = bytesToWords(msg.u);
  const dw = bytesToWords(delta);
  const q = new Uint32Array(BASE_OTS * words);
  for (let j = 0; j < BASE_OTS; j++) {
    const col = column(keys[j]!, sid, j, words);
    const mask = -((dw[j >>> 5]! >>> (j & 31)) & 1);
    for (let w = 0; w < words; w++) q[j * words + w] = col[w]! ^ (uw[j * words + w]! & mask);
  }
  const chi = chiValues(sid, msg.u, chunks);
  const qs = new Uint32Array(8 * BASE_OTS);
  for (let c = 0; c < chunks; c++) {
    const sh = chiShifts(chi, 4 * c);
    for (let j = 0; j < BASE_OTS; j++) clmulAcc(qs, 8 * j, q, j * words + 4 * c, sh);
  }
  const x = bytesToWords(msg.kosX);
  const t = bytesToWords(msg.kosT);
  let diff = 0;
  for (let j = 0; j < BASE_OTS; j++) {
    const mask = -((dw[j >>> 5]! >>> (j & 31)) & 1);
    for (let w = 0; w < 8; w++) diff |= qs[8 * j + w]! ^ t[8 * j + w]! ^ (x[w]! & mask);
  }
  if (diff !== 0) {
    q.fill(0);
    throw new CryptoError('CHECK_FAILED', 'OT extension KOS consistency check failed (q_j ≠ t_j ⊕ Δ_j·x)', [receiverId]);
  }
  const rowsQ = transposeColumns(q, words);
  q.fill(0);
  const h = rowHasher(sid);
  const v0 = new Array<bigint>(used);
  const v1 = new Array<bigint>(used);
  for (let i = 0; i < used; i++) {
    v0[i] = h(rowsQ, i);
    v1[i] = h(rowsQ, i, dw);
  }
  rowsQ.fill(0);
  dw.fill(0);
  return { v0, v1 };
}

export function choiceBits(seed: Uint8Array, rows: number): Uint32Array {
  return bytesToWords(prg('ot-ext choice', seed, 0, rows / 8));
}
