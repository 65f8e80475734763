// Public API of @svc/db. Test helpers are in '@svc/db/testing'.
export * from './generated/prisma/client.js';
export { rateLimitStore, type RateLimitStore, type RateLimitCount } from './rate-limit-store.js';
export { isUniqueViolation, uniqueViolationFields } from './errors.js';
export { createDb, pingDb, poolConfig, DEFAULT_DB_TIMEOUTS, type CreateDbOptions, type DbTimeouts } from './client.js';
export { isDatabaseUnavailable, databaseUnavailableError, DatabaseConnectionError } from './unavailable.js';
export { directSql, type DirectSql } from './direct-sql.js';
export { prepareDatabase, readDatabaseConfig, type DatabaseConfig, type PrepareDatabaseOptions } from './prepare-database.js';
export { migrate, readMigrations, MAIN_MIGRATIONS_DIR, type MigrateOptions, type MigrateResult, type MigrationFile } from './migrate.js';
export {
  ensureDatabase,
  repositoryRoot,
  DEFAULT_DATABASE_NAME,
  type EnsureDatabaseOptions,
  type EnsuredDatabases,
} from './ensure-database.js';
export { startEmbeddedPostgres, type EmbeddedServer, type EmbeddedServerOptions } from './embedded.js';
export { createDatabaseIfMissing, databaseExists, dropDatabase } from './server-admin.js';
export { connectionFields, connectionUrl, withDatabase, type ConnectionFields } from './connection.js';
export { DEFAULT_EMBEDDED_PORT, readDbEnv } from './env.js';
