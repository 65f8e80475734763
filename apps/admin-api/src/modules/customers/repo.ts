import type { ApiKey, Customer, Prisma, PrismaClient } from '@svc/db';
import type { OffsetPage } from '@svc/accounts';

type Tx = PrismaClient | Prisma.TransactionClient;

export function insertCustomer(
  db: Tx,
  data: { email: string; label: string; logo: Uint8Array<ArrayBuffer> | null; logoMimeType: string | null },
): Promise<Customer> {
  return db.customer.create({ data });
}

export async function listCustomersWithKeys(
  db: PrismaClient,
  page: OffsetPage,
): Promise<{ rows: (Customer & { apiKeys: ApiKey[]; _count: { dashboardUsers: number } })[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.customer.findMany({
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.limit,
      skip: page.offset,
      include: { apiKeys: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }, _count: { select: { dashboardUsers: true } } },
    }),
    db.customer.count(),
  ]);
  return { rows, total };
}

export function findCustomerWithAccounts(db: PrismaClient, id: string) {
  return db.customer.findUnique({
    where: { id },
    include: {
      dashboardUsers: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
      apiKeys: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] },
    },
  });
}

export async function deleteDashboardUsersOf(db: Tx, customerId: string): Promise<void> {
  await db.customerDashboardUser.deleteMany({ where: { customerId } });
}

/** Deletes the customer row; false when it was already gone (a concurrent delete). */
export async function deleteCustomerRow(db: Tx, customerId: string): Promise<boolean> {
  const { count } = await db.customer.deleteMany({ where: { id: customerId } });
  return count === 1;
}
