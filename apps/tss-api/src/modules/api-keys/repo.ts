import type { ApiKeyOwner } from '@svc/auth';
import type { PrismaClient } from '@svc/db';

/** Resolves an API key hash to its owner; revoked keys and suspended customers resolve to null. */
export function apiKeyRepo(db: PrismaClient) {
  return {
    async ownerOf(keyHash: string): Promise<ApiKeyOwner | null> {
      const key = await db.apiKey.findUnique({
        where: { keyHash },
        select: { id: true, customerId: true, revokedAt: true, customer: { select: { status: true } } },
      });
      if (!key || key.revokedAt || key.customer.status !== 'ACTIVE') return null;
      return { apiKeyId: key.id, customerId: key.customerId };
    },
  };
}
