import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { MAIN_MIGRATIONS_DIR, migrate, readMigrations } from '../src/migrate.js';
import { startTestServer, type TestServer } from '../src/testing.js';

const EXPECTED_TABLES = [
  '_prisma_migrations',
  'admin_users',
  'api_keys',
  'customer_dashboard_users',
  'customers',
  'email_verifications',
  'key_share_nodes',
  'presignature_pool',
  'rate_limit_counters',
  'revoked_tokens',
  'signature_audit_logs',
  'triple_pool',
  'tss_activation_settings',
  'tss_sessions',
  'tss_stages',
  'users',
  'wallet_key_share_node_statuses',
  'wallets',
  'witnessed_id_tokens',
];

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

test('every committed migration applies to an empty database, and a second run is a no-op', async () => {
  const url = await server.createDatabase('empty');
  const committed = await readMigrations(MAIN_MIGRATIONS_DIR);
  expect(committed.length).toBeGreaterThan(0);

  const first = await migrate(url);
  expect(first).toEqual({ applied: committed.map((m) => m.name), alreadyApplied: 0 });
  const tables = await query<{ table_name: string }>(
    url,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  expect(tables.map((t) => t.table_name)).toEqual(EXPECTED_TABLES);

  const second = await migrate(url);
  expect(second).toEqual({ applied: [], alreadyApplied: committed.length });
});

test('bookkeeping rows have the shape and checksums prisma migrate deploy writes', async () => {
  const url = await server.createDatabase('bookkeeping');
  await migrate(url);
  const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number; id: string }>(
    url,
    'SELECT id, migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
  );
  const committed = await readMigrations(MAIN_MIGRATIONS_DIR);
  expect(rows).toHaveLength(committed.length);
  for (const [i, migration] of committed.entries()) {
    const file = await readFile(join(MAIN_MIGRATIONS_DIR, migration.name, 'migration.sql'));
    expect(rows[i]).toMatchObject({
      migration_name: migration.name,
      checksum: createHash('sha256').update(file).digest('hex'),
      applied_steps_count: 1,
    });
    expect(rows[i]?.finished_at).toBeInstanceOf(Date);
    expect(rows[i]?.id).toMatch(/^[0-9a-f-]{36}$/);
  }
});

test('replicas migrating at the same time apply each migration once', async () => {
  const url = await server.createDatabase('race');
  const results = await Promise.all(Array.from({ length: 5 }, () => migrate(url)));
  const appliedCounts = results.map((r) => r.applied.length).sort();
  const committed = await readMigrations(MAIN_MIGRATIONS_DIR);
  expect(appliedCounts).toEqual([0, 0, 0, 0, committed.length]);
  const rows = await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM "_prisma_migrations"');
  expect(rows[0]?.n).toBe(committed.length);
});

test('a failing migration leaves neither schema changes nor a bookkeeping row, and later ones do not run', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-migrations-'));
  try {
    const write = async (name: string, sql: string) => {
      await mkdir(join(dir, name));
      await writeFile(join(dir, name, 'migration.sql'), sql);
    };
    await write('001_ok', 'CREATE TABLE a (id int);');
    await write('002_broken', 'CREATE TABLE b (id int);\nINSERT INTO missing_table VALUES (1);');
    await write('003_after', 'CREATE TABLE c (id int);');
    const url = await server.createDatabase('broken');

    await expect(migrate(url, { migrationsDir: dir })).rejects.toThrow(/migration 002_broken failed: relation "missing_table" does not exist/);
    const tables = await query<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual(['_prisma_migrations', 'a']);
    const names = await query<{ migration_name: string }>(url, 'SELECT migration_name FROM "_prisma_migrations"');
    expect(names.map((n) => n.migration_name)).toEqual(['001_ok']);

    // Fixed file, restart: picks up where it stopped.
    await writeFile(join(dir, '002_broken', 'migration.sql'), 'CREATE TABLE b (id int);');
    expect((await migrate(url, { migrationsDir: dir })).applied).toEqual(['002_broken', '003_after']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the credentials version reaches dashboard accounts that already exist as 0, the value of tokens without the claim', async () => {
  // An existing database: every migration before this one applied, with a dashboard account in it.
  const dir = await mkdtemp(join(tmpdir(), 'svc-migrations-'));
  const target = '20261126040225_dashboard_user_credentials_version';
  try {
    for (const { name } of await readMigrations(MAIN_MIGRATIONS_DIR)) {
      if (name >= target) continue;
      await mkdir(join(dir, name));
      await writeFile(join(dir, name, 'migration.sql'), await readFile(join(MAIN_MIGRATIONS_DIR, name, 'migration.sql')));
    }
    const url = await server.createDatabase('existing');
    await migrate(url, { migrationsDir: dir });
    await query(
      url,
      `WITH c AS (INSERT INTO customers (id, email, label, updated_at) VALUES (gen_random_uuid(), 'old@example.com', 'Old', now()) RETURNING id)
       INSERT INTO customer_dashboard_users (id, customer_id, email, password_hash, updated_at) SELECT gen_random_uuid(), id, 'old@example.com', 'hash', now() FROM c`,
    );

    const result = await migrate(url);
    expect(result.applied).toContain(target);
    const rows = await query<{ credentials_version: number }>(url, 'SELECT credentials_version FROM customer_dashboard_users');
    expect(rows).toEqual([{ credentials_version: 0 }]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a missing migrations directory is a clear error', async () => {
  const url = await server.createDatabase('nodir');
  await expect(migrate(url, { migrationsDir: '/nonexistent/migrations' })).rejects.toThrow('migrations directory not found: /nonexistent/migrations');
});

test('prisma/schema.prisma has no changes that lack a migration', async () => {
  // db:migration stores the schema each migration was made from; a difference means someone
  // changed the schema without running `pnpm --filter @svc/db db:migration <name>`.
  const url = await server.createDatabase('drift');
  const packageDir = join(MAIN_MIGRATIONS_DIR, '..', '..');
  const diff = spawnSync(
    process.execPath,
    [
      join(packageDir, 'scripts', 'prisma.mjs'),
      'migrate',
      'diff',
      '--from-schema-datamodel',
      join(MAIN_MIGRATIONS_DIR, 'schema.snapshot.prisma'),
      '--to-schema-datamodel',
      join(packageDir, 'prisma', 'schema.prisma'),
      '--script',
    ],
    { cwd: packageDir, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' },
  );
  expect(diff.stderr).not.toMatch(/Error/);
  expect(diff.stdout.trim()).toBe('-- This is an empty migration.');
});
