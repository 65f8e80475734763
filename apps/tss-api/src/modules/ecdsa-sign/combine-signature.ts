import { secp256k1 } from '@noble/curves/secp256k1.js';
import { CryptoError, fromHex, type SignatureShareMessage } from '@svc/crypto';

const N = secp256k1.Point.Fn.ORDER;
const HALF = N >> 1n;

export interface CombinedSignature {
  r: Uint8Array;
  s: Uint8Array;
  /** 0..3: parity of R.y (+2 if x(R) >= n), after the low-s flip; Ethereum v = 27 + recovery_id. */
  recoveryId: number;
}

const scalar = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
const bytes32 = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

/**
 * The server side of signCombineClient: s = s_client + s_server, normalised to low s, with the
 * recovery id, and VERIFIED as plain ECDSA over the 32-byte hash under the wallet's key before
 * anything is returned. The server plays the combiner so that the spec's step answer can carry
 * r and s and so that its own share never has to leave (only the finished, public signature).
 * Throws CryptoError (INVALID_SIGNATURE_SHARE, blaming the client) when the result does not verify.
 */
export function combineSignature(server: SignatureShareMessage, clientShareHex: string, msgHash: Uint8Array, publicKey: Uint8Array): CombinedSignature {
  const client = scalar(fromHex(clientShareHex, 'signature_share', 32));
  if (client >= N) throw new CryptoError('INVALID_SCALAR', 'signature_share must be < n', [1]);
  const R = secp256k1.Point.fromHex(server.big_r).toAffine();
  const r = R.x % N;
  let s = (client + scalar(fromHex(server.signature_share, 'server share', 32))) % N;
  if (r === 0n || s === 0n) throw new CryptoError('INVALID_SIGNATURE_SHARE', 'combined r or s is zero', [1]);
  let recoveryId = (R.y & 1n ? 1 : 0) | (R.x >= N ? 2 : 0);
  if (s > HALF) {
    s = N - s;
    recoveryId ^= 1;
  }
  const signature = new Uint8Array(64);
  signature.set(bytes32(r), 0);
  signature.set(bytes32(s), 32);
  if (!secp256k1.verify(signature, msgHash, publicKey, { prehash: false, lowS: true })) {
    throw new CryptoError('INVALID_SIGNATURE_SHARE', 'the combined signature does not verify: signature_share is wrong', [1]);
  }
  return { r: signature.slice(0, 32), s: signature.slice(32), recoveryId };
}
