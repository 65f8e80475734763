import type { Customer, CustomerDashboardUser, Prisma, PrismaClient } from '@svc/db';

type Tx = PrismaClient | Prisma.TransactionClient;

export function findCustomer(db: Tx, customerId: string): Promise<Customer | null> {
  return db.customer.findUnique({ where: { id: customerId } });
}

export function listDashboardUsers(db: Tx, customerId: string): Promise<CustomerDashboardUser[]> {
  return db.customerDashboardUser.findMany({ where: { customerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export function findDashboardUserByEmail(db: Tx, email: string): Promise<CustomerDashboardUser | null> {
  return db.customerDashboardUser.findUnique({ where: { email } });
}

export function findDashboardUser(db: Tx, userId: string): Promise<CustomerDashboardUser | null> {
  return db.customerDashboardUser.findUnique({ where: { id: userId } });
}

export function createDashboardUser(
  db: Tx,
  data: { customerId: string; email: string; passwordHash: string; emailVerifiedAt: Date | null },
): Promise<CustomerDashboardUser> {
  return db.customerDashboardUser.create({ data });
}

export function setDashboardUserPassword(db: Tx, userId: string, passwordHash: string): Promise<CustomerDashboardUser> {
  return db.customerDashboardUser.update({ where: { id: userId }, data: { passwordHash } });
}
