import { dashboardUserRepo, type Tx } from '@svc/accounts';
import type { Prisma, PrismaClient } from '@svc/db';

/** Work on the same transaction, done first: using up the emailed code that allows the change. */
type UseCode = (tx: Prisma.TransactionClient) => Promise<void>;

async function markEmailVerified(db: Tx, userId: string, at: Date): Promise<void> {
  await db.customerDashboardUser.updateMany({ where: { id: userId, emailVerifiedAt: null }, data: { emailVerifiedAt: at } });
}

/** What sign-in and the emailed codes change on a dashboard account (the account rows: @svc/accounts dashboardUserRepo). */
export function authRepo(db: PrismaClient) {
  return {
    async recordLogin(userId: string): Promise<void> {
      // updateMany: an account deleted since sign-in read it is no error (0 rows), not Prisma's P2025.
      await db.customerDashboardUser.updateMany({ where: { id: userId }, data: { lastLoginAt: new Date() } });
    },

    /** Uses the code and marks the email verified, in one transaction. */
    verifyEmail(userId: string, at: Date, useCode: UseCode): Promise<void> {
      return db.$transaction(async (tx) => {
        await useCode(tx);
        await markEmailVerified(tx, userId, at);
      });
    },

    /**
     * Uses the code, sets the password (bumping the credentials version, which revokes every
     * earlier token of the account) and marks the email verified (the code proved it), in one
     * transaction.
     */
    resetPassword(userId: string, passwordHash: string, at: Date, useCode: UseCode): Promise<void> {
      return db.$transaction(async (tx) => {
        await useCode(tx);
        await dashboardUserRepo(tx).changePassword(userId, passwordHash);
        await markEmailVerified(tx, userId, at);
      });
    },
  };
}

export type AuthRepo = ReturnType<typeof authRepo>;
