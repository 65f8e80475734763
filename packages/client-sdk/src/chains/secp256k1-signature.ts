import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { ECDSASignature } from '@noble/curves/abstract/weierstrass.js';
import { bytesToHex, concatBytes } from '@noble/hashes/utils.js';
import { SvcError } from '../errors.js';
import type { Secp256k1Signer } from '../signers.js';

/** A checked secp256k1 signature: low-s, recovery bit verified against the wallet's key. */
export interface Secp256k1Signature {
  r: Uint8Array;
  s: Uint8Array;
  recovery: 0 | 1;
  /** r || s, 64 bytes (the compact form Cosmos and most APIs use). */
  signature: Uint8Array;
}

const { n: ORDER } = secp256k1.Point.CURVE();

/**
 * Asks the signer for a signature over `hash32`, then makes it canonical and proves it good
 * before anything is returned: s is folded to the low half (Ethereum and Cosmos reject
 * high-s), and the recovery bit is the one that recovers the wallet's own key. A signer that
 * answers with anything else (a misbehaving server, a wrong key) gives INVALID_SIGNATURE,
 * never a bad signature handed to the app.
 */
export async function signDigest(signer: Secp256k1Signer, hash32: Uint8Array): Promise<Secp256k1Signature> {
  if (!(hash32 instanceof Uint8Array) || hash32.length !== 32) {
    throw new SvcError('INVALID_ARGUMENT', 'the digest to sign must be 32 bytes');
  }
  const raw = await signer.signHash(hash32);
  if (raw.r?.length !== 32 || raw.s?.length !== 32) {
    throw new SvcError('INVALID_SIGNATURE', 'the secp256k1 signer returned r or s not of 32 bytes');
  }
  let sig: ECDSASignature;
  try {
    sig = secp256k1.Signature.fromBytes(concatBytes(raw.r, raw.s), 'compact');
  } catch (err) {
    throw new SvcError('INVALID_SIGNATURE', 'the secp256k1 signer returned r or s out of range', 0, { cause: err });
  }
  let recovery = raw.recovery;
  if (sig.hasHighS()) {
    // (r, n - s) is the same signature with R's y negated, so the parity flips too.
    sig = new secp256k1.Signature(sig.r, ORDER - sig.s);
    recovery = recovery === 0 ? 1 : 0;
  }
  const compact = sig.toBytes('compact');
  if (!secp256k1.verify(compact, hash32, signer.publicKey, { prehash: false, lowS: true, format: 'compact' })) {
    throw new SvcError('INVALID_SIGNATURE', 'the secp256k1 signature does not verify under the wallet public key');
  }
  const wallet = bytesToHex(signer.publicKey);
  const recovered = (bit: 0 | 1) => bytesToHex(sig.addRecoveryBit(bit).recoverPublicKey(hash32).toBytes(true));
  if (recovered(recovery) !== wallet) {
    // Valid signature, wrong parity hint: use the bit that actually recovers our key.
    recovery = recovery === 0 ? 1 : 0;
    if (recovered(recovery) !== wallet) {
      throw new SvcError('INVALID_SIGNATURE', 'no recovery bit recovers the wallet public key');
    }
  }
  return { r: compact.slice(0, 32), s: compact.slice(32), recovery, signature: compact };
}

/** Validates a compressed secp256k1 public key and returns its uncompressed 65-byte form. */
export function uncompressSecp256k1(publicKey: Uint8Array): Uint8Array {
  if (publicKey.length !== 33) throw new SvcError('INVALID_ARGUMENT', 'the secp256k1 public key must be 33 bytes (compressed)');
  try {
    return secp256k1.Point.fromBytes(publicKey).toBytes(false);
  } catch (err) {
    throw new SvcError('INVALID_ARGUMENT', 'the secp256k1 public key is not a point on the curve', 0, { cause: err });
  }
}
