import { issueApiKey, type ApiKeyOwner } from '@svc/auth';
import type { ApiKey, Prisma, PrismaClient } from '@svc/db';
import type { OffsetPage } from './pagination.js';

type Tx = PrismaClient | Prisma.TransactionClient;

export const DEFAULT_API_KEY_LABEL = 'default';

/** Creates a key for a customer; returns the row and the key, which is not stored. */
export async function createApiKey(db: Tx, customerId: string, label: string): Promise<{ row: ApiKey; key: string }> {
  const issued = issueApiKey();
  const row = await db.apiKey.create({
    data: { customerId, label, keyHash: issued.hash, keyPrefix: issued.displayPrefix },
  });
  return { row, key: issued.key };
}

export async function listApiKeys(db: Tx, customerId: string, page: OffsetPage): Promise<{ rows: ApiKey[]; total: number }> {
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
}

export function findApiKey(db: Tx, customerId: string, apiKeyId: string): Promise<ApiKey | null> {
  return db.apiKey.findFirst({ where: { id: apiKeyId, customerId } });
}

/** Revokes one key (idempotent: an already revoked key keeps its first revocation time). */
export async function revokeApiKey(db: Tx, customerId: string, apiKeyId: string): Promise<ApiKey | null> {
  await db.apiKey.updateMany({ where: { id: apiKeyId, customerId, revokedAt: null }, data: { revokedAt: new Date() } });
  return findApiKey(db, customerId, apiKeyId);
}

/** Revokes every live key of a customer; returns how many. */
export async function revokeAllApiKeys(db: Tx, customerId: string): Promise<number> {
  const { count } = await db.apiKey.updateMany({ where: { customerId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}

/**
 * The lookup behind @svc/auth `apiKeyGuard`: the owner of a live key, by its hash. A revoked
 * key or one whose customer was deleted gives null at once (nothing is cached), which is
 * what makes revocation immediate.
 */
export async function findLiveApiKey(db: Tx, keyHash: string): Promise<ApiKeyOwner | null> {
  const row = await db.apiKey.findUnique({ where: { keyHash }, select: { id: true, customerId: true, revokedAt: true } });
  if (!row || row.revokedAt) return null;
  return { apiKeyId: row.id, customerId: row.customerId };
}
