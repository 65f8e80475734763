import type { EnvReader } from '@svc/config';
import { DEFAULT_DB_TIMEOUTS, type CreateDbOptions } from './client.js';
import { ensureDatabase } from './ensure-database.js';
import { migrate } from './migrate.js';

/** How a service finds its database, read the same way by every app. */
export interface DatabaseConfig {
  /** DATABASE_URL; unset -> the embedded PostgreSQL `pnpm start` uses. */
  databaseUrl?: string;
  /**
   * MIGRATE_ON_START (default true): apply committed migrations at start-up. Production
   * images set it to false and run the migration job once per release instead, so replicas
   * never race a schema change (they would be safe anyway: the migrator takes an advisory lock).
   */
  migrateOnStart: boolean;
  /** DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, DB_PREPARED_STATEMENTS: createDb's options. */
  pool?: CreateDbOptions;
}

export function readDatabaseConfig(env: EnvReader): DatabaseConfig {
  const databaseUrl = env.optionalUrl('DATABASE_URL');
  return {
    ...(databaseUrl ? { databaseUrl } : {}),
    migrateOnStart: env.bool('MIGRATE_ON_START', true),
    pool: {
      connectTimeoutMs: env.int('DB_CONNECT_TIMEOUT_MS', DEFAULT_DB_TIMEOUTS.connectTimeoutMs, { min: 100, max: 120_000 }),
      statementTimeoutMs: env.int('DB_STATEMENT_TIMEOUT_MS', DEFAULT_DB_TIMEOUTS.statementTimeoutMs, { min: 100, max: 600_000 }),
      preparedStatements: env.bool('DB_PREPARED_STATEMENTS', true),
    },
  };
}

export interface PrepareDatabaseOptions extends DatabaseConfig {
  /** Database name on the embedded server (default the main database's). */
  databaseName?: string;
  /** Migrations to apply (default the main database's). */
  migrationsDir?: string;
  log?: (line: string) => void;
}

/**
 * What every service does before it connects: make sure its database exists (DATABASE_URL or
 * the embedded server), then apply its migrations when MIGRATE_ON_START allows. Returns the
 * URL to connect to and how to stop an embedded server this process started.
 */
export async function prepareDatabase(options: PrepareDatabaseOptions): Promise<{ url: string; stop(): Promise<void> }> {
  const ensured = await ensureDatabase({
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.databaseName ? { databaseName: options.databaseName } : {}),
  });
  if (options.migrateOnStart) {
    try {
      await migrate(ensured.url, {
        ...(options.migrationsDir ? { migrationsDir: options.migrationsDir } : {}),
        ...(options.log ? { log: options.log } : {}),
      });
    } catch (error) {
      await ensured.stop();
      throw error;
    }
  }
  return { url: ensured.url, stop: () => ensured.stop() };
}
