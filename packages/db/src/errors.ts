import { Prisma } from './generated/prisma/client.js';

/**
 * The fields of the unique constraint a Prisma error (P2002) violated, or undefined when the
 * error is something else. Through the pg driver adapter, Prisma does not fill `meta.target`:
 * the columns are under `meta.driverAdapterError.cause.constraint.fields`, as database column
 * names: ['key_hash'], ['auth_type', 'provider_subject']. When only the index name is known,
 * it is given as [index name]. Raw statements' violations (P2010) count too.
 */
export function uniqueViolationFields(error: unknown): string[] | undefined {
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

/** True when `error` is a unique violation (P2002), optionally on a constraint including column `column`. */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  const fields = uniqueViolationFields(error);
  return fields !== undefined && (column === undefined || fields.includes(column));
}
