import type { PrismaClient, TssSessionKind, TssSessionStatus } from '@svc/db';

export interface SessionHead {
  userId: string;
  kind: TssSessionKind;
  status: TssSessionStatus;
  expiresAt: Date;
}

export function sessionsRepo(db: PrismaClient) {
  return {
    head(id: string): Promise<SessionHead | null> {
      return db.tssSession.findUnique({ where: { id }, select: { userId: true, kind: true, status: true, expiresAt: true } });
    },

    /** ACTIVE -> `status`, erasing the whole state (it may hold sealed secrets), once. */
    async end(id: string, userId: string, status: 'ABORTED' | 'EXPIRED', stage: string): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const { count } = await tx.tssSession.updateMany({
          where: { id, userId, status: 'ACTIVE' },
          data: { status, state: {}, stateVersion: { increment: 1 }, completedAt: new Date() },
        });
        if (count === 1) {
          await tx.tssStage.upsert({
            where: { sessionId_name: { sessionId: id, name: stage } },
            create: { sessionId: id, name: stage, status: 'COMPLETED', completedAt: new Date() },
            update: {},
          });
        }
        return count === 1;
      });
    },
  };
}

export type SessionsRepo = ReturnType<typeof sessionsRepo>;
