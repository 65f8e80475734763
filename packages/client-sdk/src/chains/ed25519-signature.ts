import { ed25519 } from '@noble/curves/ed25519.js';
import { SvcError } from '../errors.js';
import type { Ed25519Signer } from '../signers.js';

/**
 * Asks the signer for an Ed25519 signature and verifies it (RFC 8032 strict, not ZIP-215)
 * under the wallet key before returning it: an aggregate built from a bad server share fails
 * here as INVALID_SIGNATURE instead of reaching the app or the chain.
 */
export async function signEd25519(signer: Ed25519Signer, message: Uint8Array): Promise<Uint8Array> {
  if (!(message instanceof Uint8Array)) throw new SvcError('INVALID_ARGUMENT', 'the message to sign must be a Uint8Array');
  const signature = await signer.sign(message);
  if (!(signature instanceof Uint8Array) || signature.length !== 64) {
    throw new SvcError('INVALID_SIGNATURE', 'the Ed25519 signer did not return 64 bytes');
  }
  let valid = false;
  try {
    valid = ed25519.verify(signature, message, signer.publicKey, { zip215: false });
  } catch {
    valid = false;
  }
  if (!valid) throw new SvcError('INVALID_SIGNATURE', 'the Ed25519 signature does not verify under the wallet public key');
  return signature;
}
