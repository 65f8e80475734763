import { bytesToNumberBE } from '@noble/curves/utils.js';
import { assertBytes } from '../../assert-input.js';
import { CryptoError } from '../../errors.js';
import { Fn, type Pt, lagrangeAtZero } from '../common/group.js';
import { type Presignature, consumePresignature, readPresignature } from '../presign/presignature.js';
import { CLIENT_ID, PARTICIPANTS, SERVER_ID } from '../triples/triple-gen-common.js';
import { encScalar, header } from '../common/wire.js';

/*
 * Sign (cait-sith sign.rs): each party's share of s for one 32-byte message hash,
 *   s_i = h·(λ_i·k_i) + r·(λ_i·σ_i),  r = x(R) mod n,
 * one message between the parties; whichever holds the other's share combines (combine.ts).
 * The presignature object is marked consumed before the share is returned; the service must
 * also consume it atomically in its database before the share leaves.
 */

export interface SignatureShareMessage {
  v: 1; ciphersuite: string; type: 'sign/share';
  big_r: string;
  signature_share: string;
}

export interface EcdsaSignature {
  /** 64-byte r ‖ s (s low), as noble's 'compact' format. */
  signature: Uint8Array;
  r: bigint;
  s: bigint;
  /** 0..3: parity of R.y, +2 if x(R) ≥ n, after the low-s flip (Ethereum v = 27 + recovery). */
  recovery: number;
}

/** r of every signature made with nonce point R: x(R) mod n. */
export const rOf = (R: Pt): bigint => Fn.create(R.toAffine().x);

/** Party `id`'s share of s for `msgHash`; consumes its presignature first. */
export function computeShare(p: Presignature, msgHash: Uint8Array, id: 1 | 2): { s: bigint; r: bigint; R: Pt; publicKey: Uint8Array } {
  assertBytes(msgHash, 'msgHash', 32);
  const v = readPresignature(p, id);
  // Spent before anything is computed from it: even a failed attempt never reuses it.
  consumePresignature(p);
  const r = rOf(v.R);
  if (r === 0n) throw new CryptoError('CHECK_FAILED', 'x(R) ≡ 0 mod n; discard this presignature');
  const h = Fn.create(bytesToNumberBE(msgHash));
  const l = lagrangeAtZero(PARTICIPANTS, id);
  const s = Fn.add(Fn.mul(h, Fn.mul(l, v.k)), Fn.mul(r, Fn.mul(l, v.sigma)));
  return { s, r, R: v.R, publicKey: v.publicKey };
}

/** Server: its signature share for a 32-byte message hash; consumes the presignature. */
export function signShareServer(presignature: Presignature, msgHash: Uint8Array): SignatureShareMessage {
  const { s, R } = computeShare(presignature, msgHash, SERVER_ID);
  return { ...header('sign/share'), big_r: R.toHex(true), signature_share: encScalar(s) };
}

/**
 * Client: its own signature share, for a server that combines (tss-api sign/step1 with
 * msgs_1.signature_share): then the server's share never has to leave the server. Consumes the
 * client's presignature. Same message shape as the server's, with the client's R.
 */
export function signShareClient(presignature: Presignature, msgHash: Uint8Array): SignatureShareMessage {
  const { s, R } = computeShare(presignature, msgHash, CLIENT_ID);
  return { ...header('sign/share'), big_r: R.toHex(true), signature_share: encScalar(s) };
}
