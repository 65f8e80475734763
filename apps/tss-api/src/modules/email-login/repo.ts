import type { PrismaClient } from '@svc/db';

const PURPOSE = 'USER_LOGIN' as const;

export interface PendingCode {
  id: string;
  codeHash: string;
  attempts: number;
  expiresAt: Date;
}

export function emailLoginRepo(db: PrismaClient) {
  return {
    /** Stores a new code and retires the older unused ones, so only the latest code works. */
    async replaceCode(email: string, codeHash: string, expiresAt: Date): Promise<void> {
      await db.$transaction([
        db.emailVerification.updateMany({ where: { email, purpose: PURPOSE, consumedAt: null }, data: { consumedAt: new Date() } }),
        db.emailVerification.create({ data: { email, purpose: PURPOSE, codeHash, expiresAt } }),
      ]);
    },

    async latestUnconsumed(email: string): Promise<PendingCode | null> {
      return db.emailVerification.findFirst({
        where: { email, purpose: PURPOSE, consumedAt: null },
        orderBy: { createdAt: 'desc' },
        select: { id: true, codeHash: true, attempts: true, expiresAt: true },
      });
    },

    /** Counts one attempt, only while under the limit: true when this attempt may proceed. */
    async takeAttempt(id: string, maxAttempts: number): Promise<boolean> {
      const { count } = await db.emailVerification.updateMany({
        where: { id, consumedAt: null, attempts: { lt: maxAttempts } },
        data: { attempts: { increment: 1 } },
      });
      return count === 1;
    },

    /** Single use: exactly one caller sees true. */
    async consume(id: string): Promise<boolean> {
      const { count } = await db.emailVerification.updateMany({
        where: { id, consumedAt: null, expiresAt: { gt: new Date() } },
        data: { consumedAt: new Date() },
      });
      return count === 1;
    },
  };
}

export type EmailLoginRepo = ReturnType<typeof emailLoginRepo>;
