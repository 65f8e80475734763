import { createDb, ensureDatabase, migrate, type PrismaClient } from '@svc/db';

export interface MainDatabase {
  db: PrismaClient;
  url: string;
  close(): Promise<void>;
}

/**
 * The main database of a service process: DATABASE_URL, or (unset) the embedded server that
 * `pnpm start` uses, with the committed migrations applied (idempotent, advisory-locked, so
 * replicas starting together are safe).
 */
export async function openMainDatabase(databaseUrl: string | undefined, log?: (line: string) => void): Promise<MainDatabase> {
  const ensured = await ensureDatabase(databaseUrl ? { databaseUrl } : {});
  try {
    await migrate(ensured.url, log ? { log } : {});
  } catch (error) {
    await ensured.stop();
    throw error;
  }
  const db = createDb(ensured.url);
  return {
    db,
    url: ensured.url,
    close: async () => {
      await db.$disconnect();
      await ensured.stop();
    },
  };
}
