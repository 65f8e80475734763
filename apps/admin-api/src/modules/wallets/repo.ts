import type { PrismaClient } from '@svc/db';
import type { OffsetPage } from '@svc/accounts';

export function walletsRepo(db: PrismaClient) {
  return {
    /** Wallets newest first with their owner and node states; the sealed share columns are never selected. */
    async list(page: OffsetPage) {
      const [rows, total] = await Promise.all([
        db.wallet.findMany({
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: page.limit,
          skip: page.offset,
          select: {
            id: true,
            curve: true,
            publicKey: true,
            createdAt: true,
            updatedAt: true,
            user: { select: { id: true, email: true, authType: true } },
            keyShareNodeStates: { select: { status: true, node: { select: { id: true, name: true } } }, orderBy: { node: { name: 'asc' } } },
          },
        }),
        db.wallet.count(),
      ]);
      return { rows, total };
    },
  };
}

export type WalletsRepo = ReturnType<typeof walletsRepo>;
