import type { PrismaClient } from '@svc/db';

export async function customerCounts(db: PrismaClient, customerId: string) {
  const [users, keys, liveKeys] = await Promise.all([
    db.customerDashboardUser.count({ where: { customerId } }),
    db.apiKey.count({ where: { customerId } }),
    db.apiKey.count({ where: { customerId, revokedAt: null } }),
  ]);
  return { users, keys, liveKeys };
}
