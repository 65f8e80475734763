import { fileURLToPath } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import { poolConfig, prepareDatabase, type CreateDbOptions, type DatabaseConfig } from '@svc/db';
import { PrismaClient } from '../generated/prisma/client.js';

/** This app's own migrations (never the main database's). */
export const KEYSHARE_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

export type NodeDb = PrismaClient;

/** A Prisma client of this node's own schema, through the pg driver adapter, with the same pool settings as @svc/db's. */
export function createNodeDb(url: string, options: CreateDbOptions = {}): NodeDb {
  return new PrismaClient({ adapter: new PrismaPg(poolConfig(url, options)) });
}

/** The node's tables (this app's migrations create them): a request touches one or more of them. */
export const NODE_TABLES = ['node_identity', 'id_token_commits', 'used_nonces', 'key_shares'] as const;
// One round trip that fails (42P01) when any table is missing, and reads no row.
const SCHEMA_PROBE = `SELECT ${NODE_TABLES.map((t) => `(SELECT 1 FROM "${t}" LIMIT 0)`).join(', ')}`;

/**
 * Readiness: the database answers within `timeoutMs` and holds the node's schema. SELECT 1
 * alone reported ready a node whose tables were gone (dropped, or a database never migrated)
 * while every request failed.
 */
export async function pingNodeDb(db: NodeDb, timeoutMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database did not answer in time')), timeoutMs);
  });
  try {
    await Promise.race([db.$queryRawUnsafe(SCHEMA_PROBE), timeout]);
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
  return { db: createNodeDb(prepared.url, config.pool), stop: prepared.stop };
}
