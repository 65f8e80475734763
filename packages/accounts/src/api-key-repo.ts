import { issueApiKey, type ApiKeyOwner } from '@svc/auth';
import type { ApiKey } from '@svc/db';
import type { Tx } from './customer-repo.js';
import type { OffsetPage } from './pagination.js';

export const DEFAULT_API_KEY_LABEL = 'default';

/** The API keys of customers, as admin-api and dashboard-api manage them (tss-api has its own cached lookup). */
export function apiKeyRepo(db: Tx) {
  const find = (customerId: string, apiKeyId: string): Promise<ApiKey | null> => db.apiKey.findFirst({ where: { id: apiKeyId, customerId } });
  return {
    find,

    /**
     * Creates a key for a customer; returns the row and the key, which is not stored.
     * `allowedOrigins`: normalised (normaliseOrigins); empty, any origin.
     */
    async create(customerId: string, label: string, allowedOrigins: readonly string[] = []): Promise<{ row: ApiKey; key: string }> {
      const issued = issueApiKey();
      const row = await db.apiKey.create({
        data: { customerId, label, keyHash: issued.hash, keyPrefix: issued.displayPrefix, allowedOrigins: [...allowedOrigins] },
      });
      return { row, key: issued.key };
    },

    async list(customerId: string, page: OffsetPage): Promise<{ rows: ApiKey[]; total: number }> {
      const [rows, total] = await Promise.all([
        db.apiKey.findMany({
          where: { customerId },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: page.limit,
          skip: page.offset,
        }),
        db.apiKey.count({ where: { customerId } }),
      ]);
      return { rows, total };
    },

    /** Changes the label and/or the allowed origins of one key of this customer; null when it has no such key. */
    async update(customerId: string, apiKeyId: string, changes: { label?: string; allowedOrigins?: readonly string[] }): Promise<ApiKey | null> {
      const data = {
        ...(changes.label !== undefined ? { label: changes.label } : {}),
        ...(changes.allowedOrigins !== undefined ? { allowedOrigins: [...changes.allowedOrigins] } : {}),
      };
      const { count } = await db.apiKey.updateMany({ where: { id: apiKeyId, customerId }, data });
      return count === 0 ? null : find(customerId, apiKeyId);
    },

    /** Revokes one key (idempotent: an already revoked key keeps its first revocation time). */
    async revoke(customerId: string, apiKeyId: string): Promise<ApiKey | null> {
      await db.apiKey.updateMany({ where: { id: apiKeyId, customerId, revokedAt: null }, data: { revokedAt: new Date() } });
      return find(customerId, apiKeyId);
    },

    /** Revokes every live key of a customer; returns how many. */
    async revokeAll(customerId: string): Promise<number> {
      const { count } = await db.apiKey.updateMany({ where: { customerId, revokedAt: null }, data: { revokedAt: new Date() } });
      return count;
    },

    /**
     * The lookup behind @svc/auth `apiKeyGuard`: the owner of a live key, by its hash. A revoked
     * key or one whose customer was deleted gives null at once (nothing is cached), which is
     * what makes revocation immediate.
     */
    async findLive(keyHash: string): Promise<ApiKeyOwner | null> {
      const row = await db.apiKey.findUnique({ where: { keyHash }, select: { id: true, customerId: true, revokedAt: true, allowedOrigins: true } });
      if (!row || row.revokedAt) return null;
      return { apiKeyId: row.id, customerId: row.customerId, allowedOrigins: row.allowedOrigins };
    },
  };
}

export type ApiKeyRepo = ReturnType<typeof apiKeyRepo>;
