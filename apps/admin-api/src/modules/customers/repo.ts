import { apiKeyRepo, dashboardUserRepo, type OffsetPage } from '@svc/accounts';
import type { ApiKey, Customer, CustomerDashboardUser, PrismaClient } from '@svc/db';

export interface NewCustomerRow {
  email: string;
  label: string;
  logo: Uint8Array<ArrayBuffer> | null;
  logoMimeType: string | null;
}

export interface CreatedCustomer {
  customer: Customer;
  user: CustomerDashboardUser;
  apiKey: { row: ApiKey; key: string };
}

/** Thrown inside the delete transaction so that it rolls back; never leaves this file. */
class CustomerGone extends Error {}

export function customersRepo(db: PrismaClient) {
  return {
    /** The customer, its first dashboard user (same email) and a first API key, in one transaction. */
    createWithOwner(
      customer: NewCustomerRow,
      owner: { passwordHash: string; emailVerifiedAt: Date },
      apiKeyLabel: string,
    ): Promise<CreatedCustomer> {
      return db.$transaction(async (tx) => {
        const row = await tx.customer.create({ data: customer });
        const user = await dashboardUserRepo(tx).create({ customerId: row.id, email: customer.email, ...owner });
        const apiKey = await apiKeyRepo(tx).create(row.id, apiKeyLabel);
        return { customer: row, user, apiKey };
      });
    },

    async listWithKeys(
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
    },

    findWithAccounts(id: string) {
      return db.customer.findUnique({
        where: { id },
        include: {
          dashboardUsers: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
          apiKeys: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] },
        },
      });
    },

    /**
     * Deletes a customer in one transaction: its API keys are revoked first (the tss-api lookup
     * refuses them from the commit on), its dashboard users deleted, then the customer row (the
     * key rows go with it, by the schema's cascade; sessions keep their history with the
     * customer reference set to null). Null, with nothing changed, when the customer is not
     * there (or a concurrent delete took it).
     */
    async deleteWithAccounts(customerId: string): Promise<{ userIds: string[]; revokedApiKeyCount: number } | null> {
      try {
        return await db.$transaction(async (tx) => {
          const users = await dashboardUserRepo(tx).listOfCustomer(customerId);
          const revoked = await apiKeyRepo(tx).revokeAll(customerId);
          await tx.customerDashboardUser.deleteMany({ where: { customerId } });
          const { count } = await tx.customer.deleteMany({ where: { id: customerId } });
          if (count !== 1) throw new CustomerGone();
          return { userIds: users.map((u) => u.id), revokedApiKeyCount: revoked };
        });
      } catch (error) {
        if (error instanceof CustomerGone) return null;
        throw error;
      }
    },
  };
}

export type CustomersRepo = ReturnType<typeof customersRepo>;
