// Writes a new migration from the changes made to prisma/schema.prisma, offline:
//   pnpm --filter @svc/db db:migration <name>
// `prisma migrate dev` cannot run here (its shadow-database path fails with the WebAssembly
// schema engine), so the migration is the diff between two schema files: the schema as of
// the last migration (prisma/migrations/schema.snapshot.prisma, written by this script) and
// the current one. Prisma's WebAssembly engine still wants a live connection even for that,
// so a throwaway embedded PostgreSQL is started; the new migration is then checked by
// applying every migration to a fresh database on it.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAIN_MIGRATIONS_DIR } from '../src/migrate.js';
import { startTestServer } from '../src/testing.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const schema = join(packageDir, 'prisma', 'schema.prisma');
const snapshot = join(MAIN_MIGRATIONS_DIR, 'schema.snapshot.prisma');

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: pnpm --filter @svc/db db:migration <name>   (name: lower-case letters, digits, _)');
  process.exit(2);
}

const server = await startTestServer();
let exitCode = 0;
try {
  const url = await server.createDatabase('diff');
  const from = existsSync(snapshot) ? ['--from-schema-datamodel', snapshot] : ['--from-empty'];
  const diff = spawnSync(
    process.execPath,
    [join(packageDir, 'scripts', 'prisma.mjs'), 'migrate', 'diff', ...from, '--to-schema-datamodel', schema, '--script'],
    { cwd: packageDir, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' },
  );
  if (diff.status !== 0) throw new Error(`prisma migrate diff failed:\n${diff.stderr}`);
  const sql = diff.stdout;
  if (/^-- This is an empty migration\.\s*$/.test(sql.trim()) || sql.trim() === '') {
    console.log('prisma/schema.prisma has no changes since the last migration: nothing written');
  } else {
    const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
    const dir = join(MAIN_MIGRATIONS_DIR, `${stamp}_${name}`);
    const previousSnapshot = existsSync(snapshot) ? readFileSync(snapshot) : undefined;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'migration.sql'), sql);
    copyFileSync(schema, snapshot);
    try {
      // Every migration, old and new, must apply to an empty database.
      await server.createDatabase('verify', { migrationsDir: MAIN_MIGRATIONS_DIR });
      console.log(`wrote ${join('prisma', 'migrations', `${stamp}_${name}`, 'migration.sql')} (applies cleanly); review it, then commit it with the schema`);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      if (previousSnapshot) writeFileSync(snapshot, previousSnapshot);
      else rmSync(snapshot, { force: true });
      throw error;
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await server.stop();
}
process.exit(exitCode);
