import {
  apiKeyView,
  createApiKey,
  createDashboardUser,
  customerDetailView,
  customerView,
  dashboardUserView,
  DEFAULT_API_KEY_LABEL,
  hashPassword,
  listDashboardUsers,
  revokeAllApiKeys,
  type OffsetPage,
} from '@svc/accounts';
import { isUniqueViolation, type PrismaClient } from '@svc/db';
import { AppError } from '@svc/envelope';
import { deleteCustomerRow, deleteDashboardUsersOf, findCustomerWithAccounts, insertCustomer, listCustomersWithKeys } from './repo.js';

export interface NewCustomer {
  email: string;
  password: string;
  label: string;
  logo?: { bytes: Uint8Array<ArrayBuffer>; mimeType: string };
}

/**
 * Creates a customer, its first dashboard user (same email and password, marked verified:
 * an admin created it on the customer's behalf) and a first API key, in one transaction.
 * The key is in this response only; the database keeps its SHA-256.
 */
export async function createCustomer(db: PrismaClient, input: NewCustomer) {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.$transaction(async (tx) => {
      const customer = await insertCustomer(tx, {
        email: input.email,
        label: input.label,
        logo: input.logo?.bytes ?? null,
        logoMimeType: input.logo?.mimeType ?? null,
      });
      const user = await createDashboardUser(tx, { customerId: customer.id, email: input.email, passwordHash, emailVerifiedAt: new Date() });
      const { row, key } = await createApiKey(tx, customer.id, DEFAULT_API_KEY_LABEL);
      return {
        customer_id: customer.id,
        customer: customerDetailView(customer),
        user: dashboardUserView(user),
        api_key: { ...apiKeyView(row), key },
      };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'email')) {
      throw new AppError('EMAIL_ALREADY_EXISTS', 'A customer or dashboard user with this email already exists');
    }
    throw error;
  }
}

export async function getCustomerList(db: PrismaClient, page: OffsetPage) {
  const { rows, total } = await listCustomersWithKeys(db, page);
  return {
    customers: rows.map((c) => ({
      ...customerView(c),
      dashboard_user_count: c._count.dashboardUsers,
      api_keys: c.apiKeys.map(apiKeyView),
    })),
    pagination: { ...page, total },
  };
}

export async function getCustomer(db: PrismaClient, customerId: string) {
  const c = await findCustomerWithAccounts(db, customerId);
  if (!c) throw new AppError('CUSTOMER_NOT_FOUND', 'Customer not found');
  return { ...customerDetailView(c), users: c.dashboardUsers.map(dashboardUserView), api_keys: c.apiKeys.map(apiKeyView) };
}

/**
 * Deletes a customer in one transaction: its API keys are revoked first (the tss-api lookup
 * refuses them from the commit on), its dashboard users deleted, then the customer row (the
 * key rows go with it, by the schema's cascade; sessions keep their history with the
 * customer reference set to null).
 */
export async function deleteCustomer(db: PrismaClient, customerId: string) {
  return db.$transaction(async (tx) => {
    const users = await listDashboardUsers(tx, customerId);
    const revoked = await revokeAllApiKeys(tx, customerId);
    await deleteDashboardUsersOf(tx, customerId);
    if (!(await deleteCustomerRow(tx, customerId))) throw new AppError('CUSTOMER_NOT_FOUND', 'Customer not found');
    return { customer_id: customerId, user_ids: users.map((u) => u.id), revoked_api_key_count: revoked };
  });
}
