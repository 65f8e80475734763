import type { AdminUser, PrismaClient } from '@svc/db';

export function adminsRepo(db: PrismaClient) {
  return {
    findByEmail(email: string): Promise<AdminUser | null> {
      return db.adminUser.findUnique({ where: { email } });
    },

    insert(email: string, passwordHash: string): Promise<AdminUser> {
      return db.adminUser.create({ data: { email, passwordHash } });
    },

    /** updateMany: an account deleted since it was read is no error (0 rows), not Prisma's P2025. */
    async setPassword(id: string, passwordHash: string): Promise<void> {
      await db.adminUser.updateMany({ where: { id }, data: { passwordHash } });
    },
  };
}

export type AdminsRepo = ReturnType<typeof adminsRepo>;
