/**
 * The SQL that docs/operations.md tells an operator to run (the post-restore purge, key
 * rotation checks, monitoring queries) runs as written against freshly migrated databases:
 * table, column and enum names are the real ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startTestDatabase, type TestDatabase } from '@svc/db/testing';

const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
const blocks = [...docs.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
const NODE_MARKER = '-- on a node:';
const KEYSHARE_MIGRATIONS = join(import.meta.dirname, '..', '..', 'apps', 'keyshare-node', 'prisma', 'migrations');

let t: TestDatabase;
let nodeUrl: string;
beforeAll(async () => {
  t = await startTestDatabase();
  nodeUrl = await t.createDatabase('ops_node', { migrationsDir: KEYSHARE_MIGRATIONS });
}, 120_000);
afterAll(() => t?.stop());

async function run(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql.replace(/^\s*--.*$/gm, '').trim());
  } finally {
    await client.end();
  }
}

test('docs/operations.md has the purge among its SQL blocks', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(4);
  const purge = blocks.find((b) => b.includes('DELETE FROM presignature_pool'));
  expect(purge).toMatch(/DELETE FROM triple_pool/);
  expect(purge).toMatch(/UPDATE tss_sessions SET status = 'ABORTED' WHERE status = 'ACTIVE'/);
});

test('every SQL block runs on the databases it is meant for', async () => {
  for (const block of blocks) {
    const [main, node] = block.split(NODE_MARKER);
    await expect(run(t.url, main!)).resolves.toBeUndefined();
    if (node) await expect(run(nodeUrl, node)).resolves.toBeUndefined();
  }
}, 60_000);
