/** The migration job (the migrate image's entry) against a real PostgreSQL. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { startTestServer } from '@svc/db/testing';

const infraDir = join(import.meta.dirname, '..');
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(() => server?.stop());

function runJob(args: string[], databaseUrl: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(infraDir, 'src', 'migrate-job', 'main.ts'), ...args], {
    cwd: infraDir,
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  const lines = result.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: result.status, lines, stderr: result.stderr };
}

async function tables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
    return rows.map((r) => r.tablename);
  } finally {
    await client.end();
  }
}

test('main: applies the main schema once, then nothing; never logs the password', async () => {
  const url = await server.createDatabase('job_main');
  const first = runJob(['main'], url);
  expect(first.status).toBe(0);
  expect(first.lines.at(-1)).toMatchObject({ service: 'migrate', message: 'migrations done', already_applied: 0 });
  expect(await tables(url)).toEqual(expect.arrayContaining(['presignature_pool', 'wallets', '_prisma_migrations']));
  const again = runJob(['main'], url);
  expect(again.status).toBe(0);
  expect(again.lines.at(-1)).toMatchObject({ applied: 0 });
  const password = new URL(url).password;
  expect(password.length).toBeGreaterThan(0);
  expect(first.lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain(`:${password}@`);
}, 60_000);

test('keyshare-node: applies the node schema, not the main one', async () => {
  const url = await server.createDatabase('job_node');
  const run = runJob(['keyshare-node'], url);
  expect(run.status).toBe(0);
  const names = await tables(url);
  expect(names).toContain('_prisma_migrations');
  expect(names).not.toContain('wallets');
}, 60_000);

test('a bad target or an unreachable database exits 1 with the reason', () => {
  const bad = runJob(['everything'], 'postgresql://svc:pw@127.0.0.1:1/x');
  expect(bad.status).toBe(1);
  expect(bad.stderr).toMatch(/target must be one of main, keyshare-node, got \\"everything\\"/);
  const down = runJob(['main'], 'postgresql://svc:pw@127.0.0.1:1/x');
  expect(down.status).toBe(1);
  expect(down.stderr).toMatch(/migration failed.*ECONNREFUSED/);
});
