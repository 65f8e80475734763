import {
  apiKeyView,
  customerDetailView,
  customerView,
  dashboardUserView,
  DEFAULT_API_KEY_LABEL,
  hashPassword,
  issuedApiKeyView,
  type OffsetPage,
} from '@svc/accounts';
import { isUniqueViolation } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { CustomersRepo } from './repo.js';

export interface NewCustomer {
  email: string;
  password: string;
  label: string;
  logo?: { bytes: Uint8Array<ArrayBuffer>; mimeType: string };
}

const notFound = () => new AppError('CUSTOMER_NOT_FOUND', 'Customer not found');

export function customersService(repo: CustomersRepo) {
  return {
    /**
     * Creates a customer, its first dashboard user (same email and password, marked verified:
     * an admin created it on the customer's behalf) and a first API key, in one transaction.
     * The key is in this response only; the database keeps its SHA-256.
     */
    async create(input: NewCustomer) {
      const passwordHash = await hashPassword(input.password);
      try {
        const { customer, user, apiKey } = await repo.createWithOwner(
          { email: input.email, label: input.label, logo: input.logo?.bytes ?? null, logoMimeType: input.logo?.mimeType ?? null },
          { passwordHash, emailVerifiedAt: new Date() },
          DEFAULT_API_KEY_LABEL,
        );
        return {
          customer_id: customer.id,
          customer: customerDetailView(customer),
          user: dashboardUserView(user),
          api_key: issuedApiKeyView(apiKey.row, apiKey.key),
        };
      } catch (error) {
        if (isUniqueViolation(error, 'email')) {
          throw new AppError('EMAIL_ALREADY_EXISTS', 'A customer or dashboard user with this email already exists');
        }
        throw error;
      }
    },

    async list(page: OffsetPage) {
      const { rows, total } = await repo.listWithKeys(page);
      return {
        customers: rows.map((c) => ({
          ...customerView(c),
          dashboard_user_count: c._count.dashboardUsers,
          api_keys: c.apiKeys.map(apiKeyView),
        })),
        pagination: { ...page, total },
      };
    },

    async get(customerId: string) {
      const c = await repo.findWithAccounts(customerId);
      if (!c) throw notFound();
      return { ...customerDetailView(c), users: c.dashboardUsers.map(dashboardUserView), api_keys: c.apiKeys.map(apiKeyView) };
    },

    /** Deletes a customer and its dashboard users; its API keys are revoked in the same transaction. */
    async delete(customerId: string) {
      const deleted = await repo.deleteWithAccounts(customerId);
      if (!deleted) throw notFound();
      return { customer_id: customerId, user_ids: deleted.userIds, revoked_api_key_count: deleted.revokedApiKeyCount };
    },
  };
}

export type CustomersService = ReturnType<typeof customersService>;
