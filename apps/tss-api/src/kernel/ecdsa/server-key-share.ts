import { fromHex } from '@svc/crypto';
import { type EcdsaKeyShare } from '@svc/crypto/ecdsa';
import type { ShareCipher } from '@svc/share-cipher';
import type { Secp256k1ServerShare } from '../wallet-secrets.js';
import { shareAad } from '../wallet-secrets.js';
import type { SigningWallet } from '../signing-wallet.js';

/**
 * The server's secp256k1 share f(2) as keygen sealed it (Feldman-checked there), in the shape
 * presign takes. The caller zeroes `secretShare` when done.
 */
export function openServerKeyShare(cipher: ShareCipher, wallet: SigningWallet, userId: string): EcdsaKeyShare {
  const plain = cipher.open(wallet.share, shareAad(wallet.id, userId));
  const stored = JSON.parse(new TextDecoder().decode(plain)) as Secp256k1ServerShare;
  plain.fill(0);
  if (stored.curve !== 'secp256k1' || stored.identifier !== 2) throw new Error('wallet share is not a secp256k1 server share');
  return { identifier: 2, secretShare: fromHex(stored.secret_share, 'secret_share', 32), publicKey: fromHex(stored.public_key, 'public_key', 33) };
}
