import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { readDbEnv } from './env.js';
import { connectionFields } from './connection.js';

// The WebAssembly schema engine reads catalog columns of type "char" (oid 18) and name (oid 19),
// which the pg adapter refuses as unsupported; both arrive as text, so report them as text (25).
const CATALOG_TEXT_OIDS = new Set([18, 19]);
const TEXT_OID = 25;

function catalogColumnsAsText(result: pg.QueryResult | undefined): void {
  for (const field of result?.fields ?? []) {
    if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
  }
}

class CatalogTextClient extends pg.Client {
  // pg's query() has many overloads: the adapter's queries arrive as promises (on a
  // transaction's client) or with a callback (through Pool.query); both results are adjusted.
  override query(...args: unknown[]): never {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: Error | null, result: pg.QueryResult | undefined) => {
        if (!error) catalogColumnsAsText(result);
        (callback as (e: Error | null, r: unknown) => void)(error, result);
      };
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) {
      return result.then((res: pg.QueryResult) => {
        catalogColumnsAsText(res);
        return res;
      }) as never;
    }
    return result as never;
  }
}

/**
 * The driver adapter the Prisma CLI uses (`prisma migrate status|deploy`). Discrete
 * connection fields, not a connection string: with a string, adapter-pg's shadow database
 * silently points at the main database.
 */
export function migrationCliAdapter(url = readDbEnv().databaseUrl): PrismaPg {
  // The CLI builds the adapter even for commands that never query (`migrate diff` between
  // schema files); pg connects lazily, so without DATABASE_URL those still work as long as
  // something listens here, and the others fail with "can't reach database server".
  const target = url ?? 'postgresql://postgres@localhost:5432/postgres';
  // allowExitOnIdle: otherwise idle pooled connections keep the CLI alive for 10 s after it is done.
  return new PrismaPg({ ...connectionFields(target), Client: CatalogTextClient, allowExitOnIdle: true });
}
