import type { PrismaClient } from '@svc/db';

export interface EcdsaWallet {
  id: string;
  publicKey: string;
  share: { keyId: string; ciphertext: Uint8Array };
}

interface Row {
  signing_enabled: boolean;
  id: string | null;
  public_key: string | null;
  server_share_ciphertext: Uint8Array | null;
  server_share_key_id: string | null;
}

/** The kill switch and the user's secp256k1 wallet, in one query (as the Ed25519 path does). */
export async function ecdsaWalletOf(db: PrismaClient, userId: string): Promise<{ signingEnabled: boolean; wallet: EcdsaWallet | null }> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT s.signing_enabled, w.id, w.public_key, w.server_share_ciphertext, w.server_share_key_id
    FROM (SELECT COALESCE((SELECT signing_enabled FROM tss_activation_settings WHERE id = 1), true) AS signing_enabled) s
    LEFT JOIN wallets w ON w.user_id = ${userId}::uuid AND w.curve = 'secp256k1'::curve`;
  const row = rows[0];
  if (!row) return { signingEnabled: true, wallet: null };
  const wallet =
    row.id && row.public_key && row.server_share_ciphertext && row.server_share_key_id
      ? { id: row.id, publicKey: row.public_key, share: { keyId: row.server_share_key_id, ciphertext: row.server_share_ciphertext } }
      : null;
  return { signingEnabled: row.signing_enabled, wallet };
}
