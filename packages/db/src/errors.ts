import { Prisma } from './generated/prisma/client.js';

/**
 * The fields of the unique constraint a Prisma error (P2002) violated, or undefined when the
 * error is something else. Through the pg driver adapter, Prisma does not fill `meta.target`:
 * the columns are under `meta.driverAdapterError.cause.constraint.fields`, as database column
 * names: ['key_hash'], ['auth_type', 'provider_subject']. When only the index name is known,
 * it is given as [index name]. Raw statements' violations (P2010) count too, and so do
 * PostgreSQL's own (SQLSTATE 23505) from a statement run on pg directly (directSql).
 */
export function uniqueViolationFields(error: unknown): string[] | undefined {
  const pgError = postgresUniqueViolation(error);
  if (pgError) return pgError;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  const meta = error.meta as
    | { target?: unknown; driverAdapterError?: { cause?: { kind?: unknown; constraint?: { fields?: unknown; index?: unknown } } } }
    | undefined;
  // A raw statement ($queryRaw) fails as P2010, the violation named by the driver adapter.
  const raw = error.code === 'P2010' && meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation';
  if (error.code !== 'P2002' && !raw) return undefined;
  if (Array.isArray(meta?.target)) return meta.target.map(String);
  const constraint = meta?.driverAdapterError?.cause?.constraint;
  if (Array.isArray(constraint?.fields)) return constraint.fields.map(String);
  if (typeof constraint?.index === 'string') return [constraint.index];
  return [];
}

/**
 * node-postgres's error for SQLSTATE 23505 (by shape: it carries PostgreSQL's severity). Its
 * detail names the columns, "Key (auth_type, provider_subject)=(...) already exists."; without
 * one, the constraint's name stands for them.
 */
function postgresUniqueViolation(error: unknown): string[] | undefined {
  const e = error as { severity?: unknown; code?: unknown; detail?: unknown; constraint?: unknown } | null;
  if (typeof e !== 'object' || e === null || typeof e.severity !== 'string' || e.code !== '23505') return undefined;
  const columns = typeof e.detail === 'string' ? /^Key \(([^)]*)\)=/.exec(e.detail)?.[1] : undefined;
  if (columns) return columns.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
  return typeof e.constraint === 'string' ? [e.constraint] : [];
}

/** True when `error` is a unique violation (P2002, P2010 or SQLSTATE 23505), optionally on a constraint including column `column`. */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  const fields = uniqueViolationFields(error);
  return fields !== undefined && (column === undefined || fields.includes(column));
}
