import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { type Pt, mulG, mulSecret, randomScalar, withTable } from '../common/group.js';
import { u32 } from '../common/transcript.js';

/*
 * Batched random base OT, "Simplest OT" (Chou–Orlandi 2015) as in cait-sith's batch_random_ot:
 * the sender publishes Y = y·G; for each i the receiver, with choice bit Δ_i, answers
 * X_i = x_i·G + Δ_i·Y. Keys: sender K⁰_i = H(i, Y, X_i, y·X_i) and K¹_i = H(i, Y, X_i, y·X_i − y·Y);
 * receiver K^{Δ_i}_i = H(i, Y, X_i, x_i·Y). The hash also binds the session id.
 *
 * Roles as in cait-sith: the base-OT *receiver* is the OT-extension *sender* and its choice
 * bits form the extension's Δ. In our deployment the server is the base-OT receiver.
 * One batch of 128 base OTs serves a whole triple-generation run (see ot-extension.ts).
 */

export const BASE_OTS = 128;

function keyHash(sid: Uint8Array, i: number, Y: Uint8Array, Xi: Uint8Array, P: Pt): Uint8Array {
  return sha256(concatBytes(utf8ToBytes('svc/ecdsa base-ot v1'), sid, u32(i), Y, Xi, P.toBytes(true)));
}

export function baseOtSenderStart(): { y: bigint; Y: Pt } {
  const y = randomScalar();
  return { y, Y: mulG(y) };
}

/** Sender keys from the receiver's X_i (already decoded, non-identity). */
export function baseOtSenderKeys(y: bigint, Y: Pt, X: readonly Pt[], sid: Uint8Array): { k0: Uint8Array[]; k1: Uint8Array[] } {
  const Z = mulSecret(Y, y);
  const Yb = Y.toBytes(true);
  const k0: Uint8Array[] = [];
  const k1: Uint8Array[] = [];
  X.forEach((Xi, i) => {
    const P = mulSecret(Xi, y);
    const Xb = Xi.toBytes(true);
    k0.push(keyHash(sid, i, Yb, Xb, P));
    k1.push(keyHash(sid, i, Yb, Xb, P.subtract(Z)));
  });
  return { k0, k1 };
}

/** Receiver: random Δ (128 bits), the X_i to send, and its keys K^{Δ_i}_i. */
export function baseOtReceive(Y: Pt, sid: Uint8Array): { delta: Uint8Array; X: Uint8Array[]; keys: Uint8Array[] } {
  const delta = randomBytes(BASE_OTS / 8);
  const Yb = Y.toBytes(true);
  const Yt = withTable(Y); // 128 constant-time multiplications with this one base
  const X: Uint8Array[] = [];
  const keys: Uint8Array[] = [];
  for (let i = 0; i < BASE_OTS; i++) {
    const x = randomScalar();
    const P = mulG(x);
    // Both candidates are computed and one is selected by mask, so timing does not depend on Δ_i.
    const a = P.toBytes(true);
    const b = P.add(Y).toBytes(true);
    const mask = -((delta[i >>> 3]! >>> (i & 7)) & 1) & 0xff;
    const Xi = new Uint8Array(33);
    for (let k = 0; k < 33; k++) Xi[k] = a[k]! ^ ((a[k]! ^ b[k]!) & mask);
    X.push(Xi);
    keys.push(keyHash(sid, i, Yb, Xi, mulSecret(Yt, x)));
  }
  return { delta, X, keys };
}
