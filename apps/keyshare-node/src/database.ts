import { fileURLToPath } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import { poolConfig, prepareDatabase, type CreateDbOptions, type DatabaseConfig } from '@svc/db';
import { PrismaClient } from './generated/prisma/client.js';

/** This app's own migrations (never the main database's). */
export const KEYSHARE_MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export type NodeDb = PrismaClient;

/** A Prisma client of this node's own schema, through the pg driver adapter, with the same pool settings as @svc/db's. */
export function createNodeDb(url: string, options: CreateDbOptions = {}): NodeDb {
  return new PrismaClient({ adapter: new PrismaPg(poolConfig(url, options)) });
}

/** Readiness: the database answers within `timeoutMs`. */
export async function pingNodeDb(db: NodeDb, timeoutMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database did not answer in time')), timeoutMs);
  });
  try {
    await Promise.race([db.$queryRaw`SELECT 1`, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The node's database, migrated: DATABASE_URL when given, else a database of its own on the
 * embedded PostgreSQL (keyshare_<name>), so several nodes can share one embedded server in
 * development without sharing data.
 */
export async function openNodeDatabase(config: DatabaseConfig, nodeName: string, log: (m: string) => void) {
  const prepared = await prepareDatabase({
    ...config,
    databaseName: `keyshare_${nodeName.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`,
    migrationsDir: KEYSHARE_MIGRATIONS_DIR,
    log,
  });
  return { db: createNodeDb(prepared.url, config.timeouts), stop: prepared.stop };
}
