import { PrismaPg } from '@prisma/adapter-pg';
import pg, { type PoolConfig } from 'pg';
import { PrismaClient } from './generated/prisma/client.js';
import { connectionFields } from './connection.js';
import { registerPool } from './direct-sql.js';

/** How long a request may wait on the database before it is answered 503 DATABASE_UNAVAILABLE. */
export interface DbTimeouts {
  /** DB_CONNECT_TIMEOUT_MS: waiting for a pooled connection, or for a new one to be established. */
  connectTimeoutMs: number;
  /**
   * DB_STATEMENT_TIMEOUT_MS: the server cancels a statement running longer (lock waits
   * included); the client gives up DB_STATEMENT_TIMEOUT_MS + 2 s after sending it, for a
   * server that no longer answers at all (stalled, or the network to it gone).
   */
  statementTimeoutMs: number;
}

export const DEFAULT_DB_TIMEOUTS: DbTimeouts = { connectTimeoutMs: 5_000, statementTimeoutMs: 10_000 };
/** What the client waits beyond the server-side statement timeout before it drops the connection. */
const CLIENT_READ_MARGIN_MS = 2_000;

export interface CreateDbOptions extends Partial<DbTimeouts> {
  /** Upper bound of the pg pool (default 10). */
  maxConnections?: number;
  /**
   * DB_PREPARED_STATEMENTS (default true): directSql's statements are named prepared statements,
   * parsed and planned once per connection (half of PostgreSQL's CPU per signature). Turn off
   * behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21, or
   * without max_prepared_statements).
   */
  preparedStatements?: boolean;
}

/** The node-postgres pool settings every Prisma client of this service uses (main database and nodes'). */
export function poolConfig(databaseUrl: string, options: CreateDbOptions = {}): PoolConfig {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_DB_TIMEOUTS.connectTimeoutMs;
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_DB_TIMEOUTS.statementTimeoutMs;
  return {
    ...connectionFields(databaseUrl),
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + CLIENT_READ_MARGIN_MS,
    // A peer that vanished (host down, network cut) is noticed on idle connections too.
    keepAlive: true,
  };
}

/**
 * A Prisma client for the database at `databaseUrl`, running queries through node-postgres
 * (engineType "client": no native query engine). The URL is split into discrete fields
 * because adapter-pg mishandles some connection-string forms. The pool is also the one
 * `directSql(db)` runs on. Call `db.$disconnect()` on shutdown: it ends the pool.
 */
export function createDb(databaseUrl: string, options: CreateDbOptions = {}): PrismaClient {
  const pool = new pg.Pool(poolConfig(databaseUrl, options));
  // An idle connection that breaks (a server restart) is an 'error' event on the pool, which
  // drops that connection; unheard, the event would end the process. The adapter listens only
  // once Prisma has connected, and a direct statement may come first.
  pool.on('error', () => {});
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  registerPool(db, pool, { prepared: options.preparedStatements ?? true });
  return db;
}

/** Readiness check: true when the database answers within `timeoutMs`. Never throws. */
export async function pingDb(db: PrismaClient, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const query = db.$queryRaw`SELECT 1`.then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
