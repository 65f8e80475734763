import type { AdminUser, PrismaClient } from '@svc/db';

export function adminsRepo(db: PrismaClient) {
  return {
    findByEmail(email: string): Promise<AdminUser | null> {
      return db.adminUser.findUnique({ where: { email } });
    },

    insert(email: string, passwordHash: string): Promise<AdminUser> {
      return db.adminUser.create({ data: { email, passwordHash } });
    },

    /**
     * The sign-in rehash of the same password, only while the row still holds `previousHash` (the
     * hash the password was checked against): a password set since the sign-in read the row must
     * not be overwritten with the old one. updateMany: an account deleted or changed since it was
     * read is no error (0 rows), not Prisma's P2025.
     */
    async setPassword(id: string, passwordHash: string, previousHash: string): Promise<void> {
      await db.adminUser.updateMany({ where: { id, passwordHash: previousHash }, data: { passwordHash } });
    },
  };
}

export type AdminsRepo = ReturnType<typeof adminsRepo>;
