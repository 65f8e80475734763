import type { PrismaClient } from '@svc/db';
import type { SessionCursor } from './session-cursor.js';

export function tssSessionsRepo(db: PrismaClient) {
  return {
    /** Up to `take` sessions after the cursor, newest first; the protocol state is never selected. */
    listAfter(cursor: SessionCursor | undefined, take: number) {
      return db.tssSession.findMany({
        where: cursor
          ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
          : {},
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take,
        select: {
          id: true,
          kind: true,
          status: true,
          userId: true,
          walletId: true,
          customerId: true,
          apiKeyId: true,
          stateVersion: true,
          expiresAt: true,
          completedAt: true,
          createdAt: true,
          updatedAt: true,
          stages: { orderBy: { createdAt: 'asc' }, select: { name: true, status: true, createdAt: true, completedAt: true } },
        },
      });
    },
  };
}

export type TssSessionsRepo = ReturnType<typeof tssSessionsRepo>;
