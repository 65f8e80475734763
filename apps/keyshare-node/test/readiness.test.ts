/** /ready reports what requests need: the node's tables, not only a database that answers. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { KEYSHARE_MIGRATIONS_DIR, NODE_TABLES } from '../src/kernel/database.js';
import { startTestNodes, type TestNodes } from '../src/testing.js';

let nodes: TestNodes;
beforeAll(async () => {
  nodes = await startTestNodes({ names: ['node-r'], verifyIdToken: () => Promise.reject(new Error('no login in this test')) });
});
afterAll(() => nodes.stop());

const CHECK = { curve_type: 'ed25519', public_key: '5866666666666666666666666666666666666666666666666666666666666666' };

test('the readiness probe covers every table the migrations create', () => {
  const created = readdirSync(KEYSHARE_MIGRATIONS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => [...readFileSync(join(KEYSHARE_MIGRATIONS_DIR, d.name, 'migration.sql'), 'utf8').matchAll(/CREATE TABLE "([^"]+)"/g)].map((m) => m[1]));
  expect([...NODE_TABLES].sort()).toEqual([...new Set(created)].sort());
});

test('a node whose schema is gone is not ready (503 NOT_READY) while its requests fail', async () => {
  const node = nodes.node('node-r');
  expect((await request(node.endpoint).get('/ready')).status).toBe(200);
  expect((await request(node.endpoint).post('/keyshare/v1/check').send(CHECK)).body).toEqual({ success: true, data: { exists: false } });

  await node.db.$executeRawUnsafe('DROP TABLE "key_shares"');
  expect((await request(node.endpoint).post('/keyshare/v1/check').send(CHECK)).status).toBe(500);
  const ready = await request(node.endpoint).get('/ready');
  expect(ready.status).toBe(503);
  expect(ready.body).toEqual({ success: false, code: 'NOT_READY', msg: 'Service is not ready' });
});
