import type { AdminUser, PrismaClient } from '@svc/db';

export function adminsRepo(db: PrismaClient) {
  return {
    findByEmail(email: string): Promise<AdminUser | null> {
      return db.adminUser.findUnique({ where: { email } });
    },

    insert(email: string, passwordHash: string): Promise<AdminUser> {
      return db.adminUser.create({ data: { email, passwordHash } });
    },

    setPassword(id: string, passwordHash: string): Promise<AdminUser> {
      return db.adminUser.update({ where: { id }, data: { passwordHash } });
    },
  };
}

export type AdminsRepo = ReturnType<typeof adminsRepo>;
