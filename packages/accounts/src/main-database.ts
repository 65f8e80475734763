import { createDb, prepareDatabase, type DatabaseConfig, type PrismaClient } from '@svc/db';

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
export async function openMainDatabase(config: DatabaseConfig, log?: (line: string) => void): Promise<MainDatabase> {
  const ensured = await prepareDatabase({ ...config, ...(log ? { log } : {}) });
  const db = createDb(ensured.url, config.pool);
  return {
    db,
    url: ensured.url,
    close: async () => {
      await db.$disconnect();
      await ensured.stop();
    },
  };
}
