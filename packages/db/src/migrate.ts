import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connectionFields } from './connection.js';

/**
 * Applies committed Prisma migrations (prisma/migrations/<name>/migration.sql) at start-up,
 * without the Prisma CLI (whose native engine cannot be downloaded here). It keeps Prisma's
 * bookkeeping table `_prisma_migrations` exactly as `prisma migrate deploy` does, so either
 * tool can take over from the other and `prisma migrate status` reports correctly.
 */

/** Migrations of the main database (this package's prisma/migrations). */
export const MAIN_MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

// The key Prisma's schema engine takes pg_advisory_lock on, so this migrator and
// `prisma migrate deploy` also exclude each other.
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

// A migration whose first line is this comment runs outside a transaction (e.g. CREATE INDEX
// CONCURRENTLY, or ALTER TYPE ... ADD VALUE followed by a use of the new value).
const NO_TRANSACTION_MARKER = '-- svc:no-transaction';

export interface MigrateOptions {
  /** Directory holding <name>/migration.sql folders; default MAIN_MIGRATIONS_DIR. */
  migrationsDir?: string;
  log?: (message: string) => void;
}

export interface MigrateResult {
  /** Names of the migrations applied by this call, in order. */
  applied: string[];
  /** How many were already applied before. */
  alreadyApplied: number;
}

export interface MigrationFile {
  name: string;
  sql: string;
  /** SHA-256 of the file, hex: what Prisma stores in `checksum`. */
  checksum: string;
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** The committed migrations in `dir`, in the order Prisma applies them (by folder name). */
export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  if (!existsSync(dir)) throw new Error(`migrations directory not found: ${dir}`);
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const migrations: MigrationFile[] = [];
  for (const name of names) {
    const file = join(dir, name, 'migration.sql');
    if (!existsSync(file)) continue;
    const bytes = await readFile(file);
    migrations.push({ name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') });
  }
  return migrations;
}

/** Applies every committed migration not yet applied to the database at `databaseUrl`. */
export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const { migrationsDir = MAIN_MIGRATIONS_DIR, log = () => undefined } = options;
  const migrations = await readMigrations(migrationsDir);
  const client = new pg.Client(connectionFields(databaseUrl));
  // A server that goes away (stopped, killed) makes the pending query reject; without a
  // listener the client's 'error' event would also crash the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    // Session-level lock: concurrent replicas starting together wait here, then find the
    // migrations already applied. Released when the connection closes, even on a crash.
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const failed = rows.filter((r) => r.finished_at === null);
    if (failed.length > 0) {
      // Same rule as `prisma migrate deploy` (P3009): a half-applied migration needs a person.
      throw new Error(
        `migration ${failed.map((r) => r.migration_name).join(', ')} failed earlier and is not rolled back; ` +
          'fix the database, then mark it with `prisma migrate resolve --rolled-back|--applied <name>`',
      );
    }
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const recorded = done.get(migration.name);
      if (recorded !== undefined) {
        if (recorded !== migration.checksum) log(`migration ${migration.name} was edited after it was applied (checksum differs)`);
        continue;
      }
      await applyOne(client, migration);
      log(`applied migration ${migration.name}`);
      applied.push(migration.name);
    }
    return { applied, alreadyApplied: migrations.length - applied.length };
  } finally {
    await client.end();
  }
}

async function applyOne(client: pg.Client, migration: MigrationFile): Promise<void> {
  const id = randomUUID();
  const record = () =>
    client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), now(), 1)`,
      [id, migration.checksum, migration.name],
    );
  if (migration.sql.startsWith(NO_TRANSACTION_MARKER)) {
    await runScript(client, migration);
    await record();
    return;
  }
  // One transaction for the script and its record: a failing migration leaves neither
  // schema changes nor a row behind, so fixing the file and restarting is enough.
  await client.query('BEGIN');
  try {
    await runScript(client, migration);
    await record();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

async function runScript(client: pg.Client, migration: MigrationFile): Promise<void> {
  try {
    // No parameters: pg sends it as a simple query, which runs a multi-statement script.
    await client.query(migration.sql);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${migration.name} failed: ${detail}`, { cause: error });
  }
}
