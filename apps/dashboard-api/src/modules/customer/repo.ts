import type { PrismaClient } from '@svc/db';

/** The counts of the customer info's metadata (the customer row itself: @svc/accounts customerRepo). */
export function customerMetadataRepo(db: PrismaClient) {
  return {
    async counts(customerId: string) {
      const [users, keys, liveKeys] = await Promise.all([
        db.customerDashboardUser.count({ where: { customerId } }),
        db.apiKey.count({ where: { customerId } }),
        db.apiKey.count({ where: { customerId, revokedAt: null } }),
      ]);
      return { users, keys, liveKeys };
    },
  };
}

export type CustomerMetadataRepo = ReturnType<typeof customerMetadataRepo>;
