import type { OffsetPage } from '@svc/accounts';
import type { WalletsRepo } from './repo.js';

export function walletsService(repo: WalletsRepo) {
  return {
    async list(page: OffsetPage) {
      const { rows, total } = await repo.list(page);
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
    },
  };
}

export type WalletsService = ReturnType<typeof walletsService>;
