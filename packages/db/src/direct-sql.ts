import type pg from 'pg';
import type { Prisma, PrismaClient } from './generated/prisma/client.js';
import { DatabaseConnectionError } from './unavailable.js';

/**
 * Statements run on node-postgres directly, on the same pool as the Prisma client they belong
 * to. For the statements every signature runs (the revocation check, the wallet lookup, the
 * session claims): Prisma's client engine spends about 0.3-0.4 ms of CPU on each raw statement
 * before pg sees it, three times what pg itself costs (docs/performance.md). Queries are built
 * with Prisma's own `Prisma.sql` template, so values are always parameters, never SQL text.
 *
 * Rows come as node-postgres parses them, which differs from `$queryRaw` in three types:
 * bytea is a Buffer (a Uint8Array), int8 and numeric are strings.
 */
export interface DirectSql {
  /** The rows of one statement. */
  rows<R>(query: Prisma.Sql): Promise<R[]>;
  /** The number of rows one statement inserted, updated or deleted. */
  execute(query: Prisma.Sql): Promise<number>;
}

const pools = new WeakMap<PrismaClient, pg.Pool>();

/** createDb's half: the pool its client runs on, for directSql. */
export function registerPool(db: PrismaClient, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** Direct statements on the pool of a client made by createDb (shared connections, same timeouts). */
export function directSql(db: PrismaClient): DirectSql {
  const pool = pools.get(db);
  if (!pool) throw new Error('directSql needs a client made by createDb, whose pool it shares');
  const run = async (query: Prisma.Sql) => {
    try {
      return await pool.query(query.text, query.values as unknown[]);
    } catch (error) {
      throw connectionFailure(error) ?? error;
    }
  };
  return {
    rows: async <R>(query: Prisma.Sql) => (await run(query)).rows as R[],
    execute: async (query: Prisma.Sql) => (await run(query)).rowCount ?? 0,
  };
}

/**
 * A socket error (refused, reset, unreachable: it names its syscall) from this pool can only be
 * the database's connection. It is marked as such, because a bare ECONNRESET is not taken for a
 * database outage (it may be another service's); PostgreSQL's own errors and pg's timeouts are
 * classified as they are (unavailable.ts).
 */
function connectionFailure(error: unknown): DatabaseConnectionError | undefined {
  // By shape: Node's socket errors need not be instances of this realm's Error.
  const e = error as { syscall?: unknown; message?: unknown } | null;
  if (typeof e === 'object' && e !== null && typeof e.syscall === 'string') {
    return new DatabaseConnectionError(String(e.message), { cause: error });
  }
  return undefined;
}
