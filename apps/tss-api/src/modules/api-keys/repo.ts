import { cacheApiKeyLookup, type ApiKeyOwner } from '@svc/auth';
import type { PrismaClient } from '@svc/db';

/**
 * Resolves an API key hash to its owner and the key's allowed origins (checked by the key guard);
 * revoked keys and suspended customers resolve to null. Answers are reused for `cacheSeconds`
 * (API_KEY_CACHE_SECONDS, see cacheApiKeyLookup): the bound on how long after a revocation, or a
 * change of allowed origins, this replica may still answer as before.
 */
export function apiKeyRepo(db: PrismaClient, options: { cacheSeconds?: number } = {}) {
  async function ownerOf(keyHash: string): Promise<ApiKeyOwner | null> {
    const key = await db.apiKey.findUnique({
      where: { keyHash },
      select: { id: true, customerId: true, revokedAt: true, allowedOrigins: true, customer: { select: { status: true } } },
    });
    if (!key || key.revokedAt || key.customer.status !== 'ACTIVE') return null;
    return { apiKeyId: key.id, customerId: key.customerId, allowedOrigins: key.allowedOrigins };
  }
  return { ownerOf: cacheApiKeyLookup(ownerOf, { ttlMs: (options.cacheSeconds ?? 0) * 1000 }) };
}
