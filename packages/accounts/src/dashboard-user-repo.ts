import type { CustomerDashboardUser } from '@svc/db';
import type { Tx } from './customer-repo.js';

/** The dashboard accounts of customers (admin-api creates and deletes them, dashboard-api signs them in). */
export function dashboardUserRepo(db: Tx) {
  return {
    listOfCustomer(customerId: string): Promise<CustomerDashboardUser[]> {
      return db.customerDashboardUser.findMany({ where: { customerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    },

    findByEmail(email: string): Promise<CustomerDashboardUser | null> {
      return db.customerDashboardUser.findUnique({ where: { email } });
    },

    find(userId: string): Promise<CustomerDashboardUser | null> {
      return db.customerDashboardUser.findUnique({ where: { id: userId } });
    },

    create(data: { customerId: string; email: string; passwordHash: string; emailVerifiedAt: Date | null }): Promise<CustomerDashboardUser> {
      return db.customerDashboardUser.create({ data });
    },

    /**
     * Replaces the hash of the same password (a rehash with today's argon2 parameters at sign-in):
     * the credentials do not change, so tokens stay valid. A new password is `changePassword`.
     * Only while the row still holds `previousHash`, the hash the password was checked against: a
     * reset committed since sign-in read the row must not be overwritten with the old password.
     * updateMany: an account deleted or changed since it was read is no error (0 rows), not Prisma's P2025.
     */
    async setPassword(userId: string, passwordHash: string, previousHash: string): Promise<void> {
      await db.customerDashboardUser.updateMany({ where: { id: userId, passwordHash: previousHash }, data: { passwordHash } });
    },

    /**
     * Sets a new password and bumps the credentials version in the same statement, which revokes
     * every token issued before it (`tokenIssuedUnderCurrentCredentials`). 0 rows for a deleted account.
     */
    async changePassword(userId: string, passwordHash: string): Promise<void> {
      await db.customerDashboardUser.updateMany({ where: { id: userId }, data: { passwordHash, credentialsVersion: { increment: 1 } } });
    },
  };
}

export type DashboardUserRepo = ReturnType<typeof dashboardUserRepo>;
