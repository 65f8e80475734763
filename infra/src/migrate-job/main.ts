/**
 * The migration step of a deployment: applies the committed migrations of one database and
 * exits (0 on success). Run once per release as a Kubernetes Job (main database) or as an
 * init container (each key share node's own database), so that serving replicas never race
 * to migrate. The migrator itself is @svc/db's (advisory-locked, one transaction each).
 * Usage: node dist/index.mjs [main|keyshare-node]   with DATABASE_URL set.
 */
import { connectionFields, migrate } from '@svc/db';
import { loadConfig } from './env.js';

function log(message: string, fields: Record<string, unknown> = {}): void {
  // Same one-JSON-object-a-line shape as the services' logs. Never the URL: it holds the password.
  console.log(JSON.stringify({ timestamp: new Date().toISOString(), level: 'info', service: 'migrate', message, ...fields }));
}

try {
  const config = loadConfig(process.env, process.argv.slice(2));
  const { host, port, database } = connectionFields(config.databaseUrl);
  log('migrating', { target: config.target, host, port, database });
  const result = await migrate(config.databaseUrl, { migrationsDir: config.migrationsDir, log: (m) => log(m) });
  log('migrations done', { applied: result.applied.length, already_applied: result.alreadyApplied });
} catch (error) {
  console.error(JSON.stringify({ timestamp: new Date().toISOString(), level: 'error', service: 'migrate', message: 'migration failed', error: String(error instanceof Error ? error.message : error) }));
  // exit() rather than exitCode: the job's status is its only result, and a pg socket must not keep it alive.
  process.exit(1);
}
