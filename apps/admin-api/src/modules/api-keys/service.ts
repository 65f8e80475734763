import { apiKeyView, createApiKey, findCustomer, listApiKeys, revokeApiKey, type OffsetPage } from '@svc/accounts';
import type { PrismaClient } from '@svc/db';
import { AppError } from '@svc/envelope';

async function requireCustomer(db: PrismaClient, customerId: string): Promise<void> {
  if (!(await findCustomer(db, customerId))) throw new AppError('CUSTOMER_NOT_FOUND', 'Customer not found');
}

/** Issues another key for a customer; the key is in this response only. */
export async function issueCustomerApiKey(db: PrismaClient, customerId: string, label: string) {
  await requireCustomer(db, customerId);
  const { row, key } = await createApiKey(db, customerId, label);
  return { ...apiKeyView(row), key };
}

export async function getCustomerApiKeys(db: PrismaClient, customerId: string, page: OffsetPage) {
  await requireCustomer(db, customerId);
  const { rows, total } = await listApiKeys(db, customerId, page);
  return { api_keys: rows.map(apiKeyView), pagination: { ...page, total } };
}

/** Revokes a key of this customer; revoking a revoked key answers it unchanged. */
export async function revokeCustomerApiKey(db: PrismaClient, customerId: string, apiKeyId: string) {
  const row = await revokeApiKey(db, customerId, apiKeyId);
  if (!row) throw new AppError('API_KEY_NOT_FOUND', 'API key not found');
  return apiKeyView(row);
}
