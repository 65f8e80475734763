import { join } from 'node:path';
import { EnvReader } from '@svc/config';
import { MAIN_MIGRATIONS_DIR, repositoryRoot } from '@svc/db';

/** Which schema a run migrates: the main database, or one key share node's database. */
export const MIGRATION_TARGETS = ['main', 'keyshare-node'] as const;
export type MigrationTarget = (typeof MIGRATION_TARGETS)[number];

export interface MigrateJobConfig {
  target: MigrationTarget;
  databaseUrl: string;
  migrationsDir: string;
}

/**
 * The migration job's configuration: the target is the first argument (the container's
 * args), the database comes from DATABASE_URL. In the image the migrations are copied under
 * MIGRATIONS_ROOT (/app/migrations/<target>); from a checkout they are read where they live.
 */
export function loadConfig(source: Record<string, string | undefined>, argv: string[]): MigrateJobConfig {
  const env = new EnvReader(source);
  const targetArg = argv[0] ?? 'main';
  const target = (MIGRATION_TARGETS as readonly string[]).includes(targetArg) ? (targetArg as MigrationTarget) : 'main';
  if (target !== targetArg) env.fail(`target must be one of ${MIGRATION_TARGETS.join(', ')}, got "${targetArg}"`);
  const databaseUrl = env.url('DATABASE_URL');
  const root = env.optionalString('MIGRATIONS_ROOT');
  env.done();
  return { target, databaseUrl, migrationsDir: root ? join(root, target) : checkoutMigrationsDir(target) };
}

function checkoutMigrationsDir(target: MigrationTarget): string {
  return target === 'main' ? MAIN_MIGRATIONS_DIR : join(repositoryRoot(), 'apps', 'keyshare-node', 'prisma', 'migrations');
}
