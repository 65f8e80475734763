import { directSql, Prisma, type DirectSql, type PrismaClient } from '@svc/db';
import { AppError } from '@svc/envelope';

/** A wallet as the signing paths need it: its key and the sealed server share. */
export interface SigningWallet {
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

/**
 * The kill switch and the user's wallet of one curve, in one query: every signing step starts
 * here, and a database round trip is a good part of a signature's latency.
 */
export async function signingWalletOf(sql: DirectSql, userId: string, curve: 'ed25519' | 'secp256k1'): Promise<{ signingEnabled: boolean; wallet: SigningWallet | null }> {
  const rows = await sql.rows<Row>(Prisma.sql`
    SELECT s.signing_enabled, w.id, w.public_key, w.server_share_ciphertext, w.server_share_key_id
    FROM (SELECT COALESCE((SELECT signing_enabled FROM tss_activation_settings WHERE id = 1), true) AS signing_enabled) s
    LEFT JOIN wallets w ON w.user_id = ${userId}::uuid AND w.curve = ${curve}::curve`);
  const row = rows[0];
  if (!row) return { signingEnabled: true, wallet: null };
  const wallet =
    row.id && row.public_key && row.server_share_ciphertext && row.server_share_key_id
      ? { id: row.id, publicKey: row.public_key, share: { keyId: row.server_share_key_id, ciphertext: row.server_share_ciphertext } }
      : null;
  return { signingEnabled: row.signing_enabled, wallet };
}

/**
 * The wallet a signing step may use: the kill switch first (SIGNING_DISABLED), then the
 * wallet of that curve (WALLET_NOT_FOUND). One place for the order of these two answers.
 */
export function usableWallet({ signingEnabled, wallet }: { signingEnabled: boolean; wallet: SigningWallet | null }): SigningWallet {
  if (!signingEnabled) throw new AppError('SIGNING_DISABLED', 'Signing is disabled');
  if (!wallet) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
  return wallet;
}

/** The signing paths' view of wallets: Ed25519 signing, and the ECDSA triples, presign, sign and pool. */
export function signingWalletRepo(db: PrismaClient) {
  const sql = directSql(db);
  return {
    ed25519: (userId: string) => signingWalletOf(sql, userId, 'ed25519'),
    secp256k1: (userId: string) => signingWalletOf(sql, userId, 'secp256k1'),
  };
}

export type SigningWalletRepo = ReturnType<typeof signingWalletRepo>;
