import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { assertBytes } from '../../assert-input.js';
import { CryptoError } from '../../errors.js';
import { Fn, ORDER, lagrangeAtZero } from '../common/group.js';
import { type Presignature, consumePresignature, readPresignature } from '../presign/presignature.js';
import { CLIENT_ID, PARTICIPANTS, SERVER_ID } from '../triples/triple-gen-common.js';
import { decMessage, decPoint, decScalar, encScalar, header } from '../common/wire.js';

/*
 * Sign (cait-sith sign.rs), one message from the server to the client (the coordinator):
 *   s_i = h·(λ_i·k_i) + r·(λ_i·σ_i),  r = x(R) mod n,
 *   s = s_1 + s_2 = k·(h + r·x), normalised to low-s; the recovery id is the parity of R.y
 *   (+2 if x(R) ≥ n), flipped when s was negated. The client verifies the result as plain
 *   ECDSA before returning it.
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

const HALF = ORDER >> 1n;

function share(p: Presignature, msgHash: Uint8Array, id: 1 | 2) {
  assertBytes(msgHash, 'msgHash', 32);
  const v = readPresignature(p, id);
  // Spent before anything is computed from it: even a failed attempt never reuses it.
  consumePresignature(p);
  const r = Fn.create(v.R.toAffine().x);
  if (r === 0n) throw new CryptoError('CHECK_FAILED', 'x(R) ≡ 0 mod n; discard this presignature');
  const h = Fn.create(bytesToNumberBE(msgHash));
  const l = lagrangeAtZero(PARTICIPANTS, id);
  const s = Fn.add(Fn.mul(h, Fn.mul(l, v.k)), Fn.mul(r, Fn.mul(l, v.sigma)));
  return { s, r, R: v.R, publicKey: v.publicKey };
}

/** Server: its signature share for a 32-byte message hash; consumes the presignature. */
export function signShareServer(presignature: Presignature, msgHash: Uint8Array): SignatureShareMessage {
  const { s, R } = share(presignature, msgHash, SERVER_ID);
  return { ...header('sign/share'), big_r: R.toHex(true), signature_share: encScalar(s) };
}

/**
 * Client: its own signature share, for a server that combines (tss-api sign/step1 with
 * msgs_1.signature_share): then the server's share never has to leave the server. Consumes the
 * client's presignature. Same message shape as the server's, with the client's R.
 */
export function signShareClient(presignature: Presignature, msgHash: Uint8Array): SignatureShareMessage {
  const { s, R } = share(presignature, msgHash, CLIENT_ID);
  return { ...header('sign/share'), big_r: R.toHex(true), signature_share: encScalar(s) };
}

/**
 * Client: combines its own share with the server's, normalises to low-s, computes the
 * recovery id and verifies the signature; consumes the client's presignature.
 */
export function signCombineClient(presignature: Presignature, msgHash: Uint8Array, serverShare: unknown): EcdsaSignature {
  const peer = { culprits: [SERVER_ID] };
  const m = decMessage(serverShare, 'sign/share', ['big_r', 'signature_share'], peer);
  const theirR = decPoint(m.big_r, 'big_r', peer);
  const theirS = decScalar(m.signature_share, 'signature_share', peer);
  const mine = share(presignature, msgHash, CLIENT_ID);
  if (!theirR.equals(mine.R)) throw new CryptoError('CHECK_FAILED', 'server share is for another presignature (R differs)', [SERVER_ID]);
  let s = Fn.add(mine.s, theirS);
  if (s === 0n) throw new CryptoError('INVALID_SIGNATURE_SHARE', 'combined s is zero', [SERVER_ID]);
  const affine = mine.R.toAffine();
  let recovery = (affine.y & 1n ? 1 : 0) | (affine.x >= ORDER ? 2 : 0);
  if (s > HALF) {
    s = Fn.neg(s);
    recovery ^= 1;
  }
  const signature = new Uint8Array(64);
  signature.set(Fn.toBytes(mine.r), 0);
  signature.set(Fn.toBytes(s), 32);
  if (!secp256k1.verify(signature, msgHash, mine.publicKey, { prehash: false, lowS: true })) {
    throw new CryptoError('INVALID_SIGNATURE_SHARE', 'combined signature does not verify: the server share is wrong', [SERVER_ID]);
  }
  return { signature, r: mine.r, s, recovery };
}
