import type { ShareCipher } from '@svc/share-cipher';
import { ed25519Wire, fromHex, toHex, type KeyPackage } from '@svc/crypto';

/*
 * What the wallets table holds, sealed: the server's key share and its seed part. The
 * associated data binds each ciphertext to its wallet, user and column, so a ciphertext moved
 * to another row or column does not open.
 */

export const shareAad = (walletId: string, userId: string) => `wallet:${walletId}:user:${userId}:server_share`;
export const seedPartAad = (walletId: string, userId: string) => `wallet:${walletId}:user:${userId}:seed_part`;

/** Sealed server share: the keygen_2 key package as wire JSON (ed25519) or the Feldman share (secp256k1). */
export interface Secp256k1ServerShare {
  v: 1;
  curve: 'secp256k1';
  identifier: 2;
  secret_share: string;
  public_key: string;
  commitments: string[];
}

export function sealJson(cipher: ShareCipher, value: unknown, aad: string) {
  return cipher.seal(new TextEncoder().encode(JSON.stringify(value)), aad);
}

export function sealEd25519Share(cipher: ShareCipher, keyPackage: KeyPackage, aad: string) {
  return sealJson(cipher, ed25519Wire.encodeKeyPackage(keyPackage), aad);
}

/**
 * Opens keygen_2 on the signing path. Its points were fully checked at keygen and the GCM tag
 * proves the bytes are the ones stored then, so only the hex is decoded here: repeating the
 * subgroup checks would cost ~1 ms per signature for nothing.
 */
export function openEd25519Share(cipher: ShareCipher, sealed: { keyId: string; ciphertext: Uint8Array }, aad: string): KeyPackage {
  const plain = cipher.open(sealed, aad);
  const json = JSON.parse(new TextDecoder().decode(plain)) as Record<string, string>;
  plain.fill(0);
  return {
    identifier: 2,
    signingShare: fromHex(json.signing_share, 'signing_share', 32),
    verifyingShare: fromHex(json.verifying_share, 'verifying_share', 32),
    verifyingKey: fromHex(json.verifying_key, 'verifying_key', 32),
    minSigners: 2,
  };
}

export { toHex };
