import { createHash } from 'node:crypto';
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
 * Each distinct statement is a named prepared statement (unless createDb's preparedStatements is
 * off): PostgreSQL parses and plans it once per connection instead of on every call.
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

interface RegisteredPool {
  pool: pg.Pool;
  prepared: boolean;
}

const pools = new WeakMap<PrismaClient, RegisteredPool>();

/** createDb's half: the pool its client runs on, for directSql. */
export function registerPool(db: PrismaClient, pool: pg.Pool, options: { prepared: boolean }): void {
  pools.set(db, { pool, ...options });
}

/** Direct statements on the pool of a client made by createDb (shared connections, same timeouts). */
export function directSql(db: PrismaClient): DirectSql {
  const registered = pools.get(db);
  if (!registered) throw new Error('directSql needs a client made by createDb, whose pool it shares');
  const { pool, prepared } = registered;
  const run = async (query: Prisma.Sql) => {
    const name = prepared ? statementName(query.text) : undefined;
    try {
      return await pool.query({ text: query.text, values: query.values as unknown[], ...(name ? { name } : {}) });
    } catch (error) {
      throw connectionFailure(error) ?? error;
    }
  };
  return {
    rows: async <R>(query: Prisma.Sql) => (await run(query)).rows as R[],
    execute: async (query: Prisma.Sql) => (await run(query)).rowCount ?? 0,
  };
}

// The statements' texts come from the code (values are parameters), so there are few of them;
// past the bound a text simply runs unnamed.
const MAX_NAMED_STATEMENTS = 500;
const names = new Map<string, string>();

/** A name fixed by the text: pg refuses one name for two texts, and a hash cannot collide in practice. */
function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
    name = `svc_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Errors of this pool that mean "retry shortly", marked as such (a 503, like the adapter's):
 * - a socket error (refused, reset, unreachable: it names its syscall) can only be the
 *   database's connection here, whereas a bare ECONNRESET elsewhere may be another service's;
 * - a prepared statement whose result columns changed under it (a migration altered a table):
 *   PostgreSQL refuses it before running it, and pg-pool drops the connection on any error, so
 *   the retry prepares it afresh.
 * PostgreSQL's other errors and pg's timeouts are classified as they are (unavailable.ts).
 */
function connectionFailure(error: unknown): DatabaseConnectionError | undefined {
  // By shape: Node's socket errors need not be instances of this realm's Error.
  const e = error as { syscall?: unknown; code?: unknown; message?: unknown } | null;
  if (typeof e !== 'object' || e === null) return undefined;
  const stalePlan = e.code === '0A000' && typeof e.message === 'string' && /cached plan must not change result type/.test(e.message);
  if (typeof e.syscall === 'string' || stalePlan) return new DatabaseConnectionError(String(e.message), { cause: error });
  return undefined;
}
