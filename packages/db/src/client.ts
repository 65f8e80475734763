import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';
import { connectionFields } from './connection.js';

export interface CreateDbOptions {
  /** Upper bound of the pg pool (default 10). */
  maxConnections?: number;
}

/**
 * A Prisma client for the database at `databaseUrl`, running queries through node-postgres
 * (engineType "client": no native query engine). The URL is split into discrete fields
 * because adapter-pg mishandles some connection-string forms. Call `db.$disconnect()` on
 * shutdown.
 */
export function createDb(databaseUrl: string, options: CreateDbOptions = {}): PrismaClient {
  const adapter = new PrismaPg({ ...connectionFields(databaseUrl), max: options.maxConnections ?? 10 });
  return new PrismaClient({ adapter });
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
