import type { AdminUser, PrismaClient } from '@svc/db';

export function findAdminByEmail(db: PrismaClient, email: string): Promise<AdminUser | null> {
  return db.adminUser.findUnique({ where: { email } });
}

export function insertAdmin(db: PrismaClient, email: string, passwordHash: string): Promise<AdminUser> {
  return db.adminUser.create({ data: { email, passwordHash } });
}

export function setAdminPassword(db: PrismaClient, id: string, passwordHash: string): Promise<AdminUser> {
  return db.adminUser.update({ where: { id }, data: { passwordHash } });
}
