import type { OffsetPage } from '@svc/accounts';
import type { PrismaClient } from '@svc/db';
import { listWallets } from './repo.js';

export async function getWalletList(db: PrismaClient, page: OffsetPage) {
  const { rows, total } = await listWallets(db, page);
  return {
    wallets: rows.map((w) => ({
      wallet_id: w.id,
      user_id: w.user.id,
      user_email: w.user.email,
      auth_type: w.user.authType,
      curve: w.curve,
      public_key: w.publicKey,
      key_share_nodes: w.keyShareNodeStates.map((s) => ({ node_id: s.node.id, name: s.node.name, wallet_status: s.status })),
      created_at: w.createdAt.toISOString(),
      updated_at: w.updatedAt.toISOString(),
    })),
    pagination: { ...page, total },
  };
}
