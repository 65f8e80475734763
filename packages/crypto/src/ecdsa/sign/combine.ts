import { secp256k1 } from '@noble/curves/secp256k1.js';
import { CryptoError } from '../../errors.js';
import { Fn, ORDER, type Pt } from '../common/group.js';
import { type Dec, decMessage, decPoint, decScalar } from '../common/wire.js';
import type { Presignature } from '../presign/presignature.js';
import { CLIENT_ID, SERVER_ID } from '../triples/triple-gen-common.js';
import { type EcdsaSignature, computeShare, rOf } from './sign.js';

/*
 * The combination of the two signature shares, by whichever party holds the other's share:
 * tss-api adds the client's share to its own (so the server's share never leaves the server);
 * a client given the server's sign/share message adds it to its own. Both run this one function:
 *   s = s_1 + s_2 = k·(h + r·x), negated when > n/2 (low s: Bitcoin and Ethereum refuse high s);
 *   recovery id = parity of R.y, +2 if x(R) ≥ n, flipped with s: R = (1/k)·G is the
 *   signature's nonce point, and negating s negates it;
 * then noble verifies the result as plain ECDSA, recovery id included, before it is returned.
 * A wrong peer share is INVALID_SIGNATURE_SHARE naming the peer, never a signature.
 */

const HALF = ORDER >> 1n;
const PARTY = { [CLIENT_ID]: 'client', [SERVER_ID]: 'server' } as const;

/** A sign/share message (R checked against ours), or the bare hex scalar where R is implied. */
function decodePeerShare(v: unknown, d: Dec): { s: bigint; R?: Pt } {
  if (typeof v === 'string') return { s: decScalar(v, 'signature_share', d) };
  const m = decMessage(v, 'sign/share', ['big_r', 'signature_share'], d);
  return { R: decPoint(m.big_r, 'big_r', d), s: decScalar(m.signature_share, 'signature_share', d) };
}

/**
 * Combines the peer's share with our own, computed here from our presignature (which this
 * consumes). The presignature's identifier says who we are (1 client, 2 server); the peer is the
 * other. `peerShare` is the peer's sign/share message, or only its hex `signature_share` when the
 * transport carries nothing else (tss-api's msgs_1: both halves of a presignature have the same
 * R). The signature must verify under `publicKey` when given (tss-api: the wallet's key), else
 * under the key the presignature is bound to.
 */
export function signCombine(presignature: Presignature, msgHash: Uint8Array, peerShare: unknown, publicKey?: Uint8Array): EcdsaSignature {
  const self = presignature?.identifier === SERVER_ID ? SERVER_ID : CLIENT_ID;
  const peer = self === SERVER_ID ? CLIENT_ID : SERVER_ID;
  const theirs = decodePeerShare(peerShare, { culprits: [peer] });
  const mine = computeShare(presignature, msgHash, self);
  if (theirs.R && !theirs.R.equals(mine.R)) {
    throw new CryptoError('CHECK_FAILED', `the ${PARTY[peer]} share is for another presignature (R differs)`, [peer]);
  }
  let s = Fn.add(mine.s, theirs.s);
  if (s === 0n) throw new CryptoError('INVALID_SIGNATURE_SHARE', 'combined s is zero', [peer]);
  const R = mine.R.toAffine();
  let recovery = (R.y & 1n ? 1 : 0) | (R.x >= ORDER ? 2 : 0);
  if (s > HALF) {
    s = Fn.neg(s);
    recovery ^= 1;
  }
  const signature = new secp256k1.Signature(mine.r, s, recovery);
  const verifies = secp256k1.verify(signature.toBytes('recovered'), msgHash, publicKey ?? mine.publicKey, { prehash: false, lowS: true, format: 'recovered' });
  if (!verifies) {
    throw new CryptoError('INVALID_SIGNATURE_SHARE', `the combined signature does not verify: the ${PARTY[peer]} share is wrong`, [peer]);
  }
  return { signature: signature.toBytes('compact'), r: mine.r, s, recovery };
}

/**
 * The r of every signature made with this presignature, x(R) mod n as 32 bytes: what a party
 * that lets the other combine checks the answer against. R is public and kept when the
 * presignature is consumed, so this works after signShareClient.
 */
export function presignatureR(presignature: Presignature): Uint8Array {
  return Fn.toBytes(rOf(decPoint(presignature?.big_r, 'presignature.big_r', { culprits: [] })));
}
