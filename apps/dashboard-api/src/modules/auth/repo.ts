import type { Prisma, PrismaClient } from '@svc/db';

type Tx = PrismaClient | Prisma.TransactionClient;

export async function markEmailVerified(db: Tx, userId: string, at: Date): Promise<void> {
  await db.customerDashboardUser.updateMany({ where: { id: userId, emailVerifiedAt: null }, data: { emailVerifiedAt: at } });
}

export async function recordLogin(db: Tx, userId: string): Promise<void> {
  await db.customerDashboardUser.update({ where: { id: userId }, data: { lastLoginAt: new Date() } });
}
