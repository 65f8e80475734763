import { apiKeyPage, apiKeyView, issuedApiKeyView, normaliseOrigins, type ApiKeyRepo, type OffsetPage } from '@svc/accounts';
import type { ServiceClaims } from '@svc/auth';
import type { CustomerDashboardUser } from '@svc/db';
import { AppError } from '@svc/envelope';

export interface ApiKeysServiceDeps {
  apiKeys: ApiKeyRepo;
  /** The live account behind a customer JWT, else 401 (the auth module's currentUser). */
  currentUser: (claims: ServiceClaims) => Promise<CustomerDashboardUser>;
}

export interface ApiKeyChanges {
  label?: string;
  /** As sent (validated); stored normalised. */
  allowedOrigins?: readonly string[];
}

/**
 * The signed-in user's own customer's API keys. The customer id always comes from the account
 * behind the token: another customer's key id is answered as an unknown one (404).
 */
export function apiKeysService({ apiKeys, currentUser }: ApiKeysServiceDeps) {
  const customerOf = async (claims: ServiceClaims) => (await currentUser(claims)).customerId;
  const notFound = () => new AppError('API_KEY_NOT_FOUND', 'API key not found');
  return {
    async list(claims: ServiceClaims, page: OffsetPage) {
      return apiKeyPage(apiKeys, await customerOf(claims), page);
    },

    /** Issues a key; the key itself is in this response only (only its SHA-256 is stored). */
    async create(claims: ServiceClaims, label: string, allowedOrigins: readonly string[]) {
      const { row, key } = await apiKeys.create(await customerOf(claims), label, normaliseOrigins(allowedOrigins));
      return issuedApiKeyView(row, key);
    },

    /** Relabels a key and/or replaces its allowed origins (a revoked key too: it stays revoked). */
    async update(claims: ServiceClaims, apiKeyId: string, changes: ApiKeyChanges) {
      if (changes.label === undefined && changes.allowedOrigins === undefined) {
        throw new AppError('INVALID_REQUEST', 'label or allowed_origins is required');
      }
      const row = await apiKeys.update(await customerOf(claims), apiKeyId, {
        ...(changes.label !== undefined ? { label: changes.label } : {}),
        ...(changes.allowedOrigins !== undefined ? { allowedOrigins: normaliseOrigins(changes.allowedOrigins) } : {}),
      });
      if (!row) throw notFound();
      return apiKeyView(row);
    },

    /** Revokes a key; revoking a revoked key answers it unchanged. */
    async revoke(claims: ServiceClaims, apiKeyId: string) {
      const row = await apiKeys.revoke(await customerOf(claims), apiKeyId);
      if (!row) throw notFound();
      return apiKeyView(row);
    },
  };
}

export type ApiKeysService = ReturnType<typeof apiKeysService>;
