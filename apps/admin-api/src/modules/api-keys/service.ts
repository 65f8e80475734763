import { apiKeyPage, apiKeyView, issuedApiKeyView, normaliseOrigins, requireCustomer, type ApiKeyRepo, type CustomerRepo, type OffsetPage } from '@svc/accounts';
import { AppError } from '@svc/envelope';

export interface ApiKeysServiceDeps {
  customers: CustomerRepo;
  apiKeys: ApiKeyRepo;
}

/** An admin's view of a customer's API keys. */
export function apiKeysService({ customers, apiKeys }: ApiKeysServiceDeps) {
  return {
    /** Issues another key for a customer; the key is in this response only. allowedOrigins: validated, stored normalised (empty: any origin). */
    async issue(customerId: string, label: string, allowedOrigins: readonly string[]) {
      await requireCustomer(customers, customerId);
      const { row, key } = await apiKeys.create(customerId, label, normaliseOrigins(allowedOrigins));
      return issuedApiKeyView(row, key);
    },

    async list(customerId: string, page: OffsetPage) {
      await requireCustomer(customers, customerId);
      return apiKeyPage(apiKeys, customerId, page);
    },

    /** Revokes a key of this customer; revoking a revoked key answers it unchanged. */
    async revoke(customerId: string, apiKeyId: string) {
      const row = await apiKeys.revoke(customerId, apiKeyId);
      if (!row) throw new AppError('API_KEY_NOT_FOUND', 'API key not found');
      return apiKeyView(row);
    },
  };
}

export type ApiKeysService = ReturnType<typeof apiKeysService>;
