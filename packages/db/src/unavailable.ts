import { AppError } from '@svc/envelope';

/**
 * Whether an error means "the database cannot serve right now" (down, unreachable, stalled,
 * restarting, out of connections, a statement cancelled by its timeout) rather than "this
 * request is wrong". Such a request changed nothing that was committed, so the client may
 * retry it: the envelope answers 503 DATABASE_UNAVAILABLE instead of 500 UNKNOWN_ERROR.
 *
 * The error reaches the handler in one of four shapes, all inspected down the cause chain:
 * a Prisma error with a connection code, a driver adapter error whose `kind` (or PostgreSQL
 * SQLSTATE) says so, node-postgres's own error thrown through unchanged (pool and read
 * timeouts, connections cut), or a DatabaseConnectionError from a direct statement
 * (direct-sql.ts). Socket errors count only in the adapter's or direct-sql's form, so that a
 * reset from another service (a key share node) is never taken for a database outage.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === 'object' && !seen.has(e); e = next(e)) {
    seen.add(e);
    if (matches(e as Record<string, unknown>)) return true;
  }
  return false;
}

/** The envelope's answer to a database outage, or undefined for any other error (errorHandler's classify hook). */
export function databaseUnavailableError(error: unknown): AppError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return new AppError('DATABASE_UNAVAILABLE', 'The database is unavailable; retry shortly', { cause: error });
}

// P1001 cannot reach, P1002 timed out, P1008 operation timed out, P1017 connection closed,
// P2024 pool timeout, P2037 too many connections.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
// node-postgres's messages for its own timeouts and for a connection lost mid-use.
const PG_MESSAGES = [
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /^timeout expired$/,
  /^Connection terminated/,
  /not queryable/,
];

/**
 * SQLSTATE: 08 connection exception, 53 insufficient resources, 57P01-57P05 admin shutdown /
 * crash shutdown / cannot connect now / database dropped / idle session timeout,
 * 57014 statement cancelled (statement_timeout).
 */
function isUnavailableSqlState(code: unknown): boolean {
  return typeof code === 'string' && (/^(08|53)/.test(code) || /^57P0[1-5]$/.test(code) || code === '57014');
}

/**
 * A statement run on pg directly (direct-sql.ts) failed in a way that means "retry shortly": its
 * connection failed, or its prepared plan went stale under a migration.
 */
export class DatabaseConnectionError extends Error {
  override readonly name = 'DatabaseConnectionError';
}

function matches(e: Record<string, unknown>): boolean {
  if (e instanceof DatabaseConnectionError) return true;
  // By shape, not class: a key share node's generated client has its own error classes.
  if (typeof e.code === 'string' && /^P\d{4}$/.test(e.code)) return PRISMA_CODES.has(e.code);
  if (typeof e.kind === 'string') {
    if (ADAPTER_KINDS.has(e.kind)) return true;
    if (e.kind === 'postgres') return isUnavailableSqlState(e.code);
  }
  // A PostgreSQL error from node-postgres (it carries a severity), not wrapped by the adapter.
  if (typeof e.severity === 'string' && isUnavailableSqlState(e.code)) return true;
  return typeof e.message === 'string' && PG_MESSAGES.some((re) => re.test(e.message as string));
}

function next(e: object): unknown {
  const record = e as { cause?: unknown; meta?: { driverAdapterError?: unknown } };
  return record.meta?.driverAdapterError ?? record.cause;
}
