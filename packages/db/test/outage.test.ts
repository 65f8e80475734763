/**
 * Bounded database waits and the outage classification: a real PostgreSQL behind a TCP relay
 * that can stall, cut or refuse connections.
 */
import { createDb, isDatabaseUnavailable, type PrismaClient } from '../src/index.js';
import { startFaultProxy, startTestDatabase, type FaultProxy, type TestDatabase } from '../src/testing.js';

let t: TestDatabase;
let proxy: FaultProxy;
let db: PrismaClient;

beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(() => t.stop());

beforeEach(async () => {
  const { port } = new URL(t.url);
  proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(port) });
  db = createDb(proxy.url(t.url), { connectTimeoutMs: 400, statementTimeoutMs: 300, maxConnections: 2 });
  await db.$queryRaw`SELECT 1`;
});
afterEach(async () => {
  proxy.resume();
  await db.$disconnect();
  await proxy.stop();
});

/** The error a query ends with, and how long it took to end. */
async function failure(query: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  try {
    await query();
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
  throw new Error('the query succeeded');
}

test('a statement longer than the statement timeout is cancelled by the server, and the pool stays usable', async () => {
  const { error, ms } = await failure(() => db.$queryRaw`SELECT pg_sleep(5)`);
  expect(ms).toBeLessThan(2000);
  expect(isDatabaseUnavailable(error)).toBe(true);
  expect(await db.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
});

test('a stalled server: queries give up after the statement timeout plus the read margin, and recover on resume', async () => {
  proxy.stall();
  const results = await Promise.all([1, 2, 3, 4].map(() => failure(() => db.$queryRaw`SELECT 1`)));
  for (const { error, ms } of results) {
    expect(isDatabaseUnavailable(error)).toBe(true);
    // 300 ms statement timeout + 2 s client margin, plus waiting for a pool slot (2 connections).
    expect(ms).toBeLessThan(6000);
  }
  proxy.resume();
  expect(await db.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
}, 20_000);

test('connections cut mid-use and a refused server are outages too', async () => {
  const slow = failure(() => db.$queryRaw`SELECT pg_sleep(0.2)`);
  await new Promise((r) => setTimeout(r, 50));
  proxy.cut();
  expect(isDatabaseUnavailable((await slow).error)).toBe(true);

  await proxy.stop();
  await db.$disconnect();
  const { error, ms } = await failure(() => db.$queryRaw`SELECT 1`);
  expect(isDatabaseUnavailable(error)).toBe(true);
  expect(ms).toBeLessThan(2000);
});

test('errors that are not an outage are not classified as one', async () => {
  await db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS outage_probe (id int PRIMARY KEY)');
  await db.$executeRawUnsafe('INSERT INTO outage_probe VALUES (1) ON CONFLICT DO NOTHING');
  const duplicate = await failure(() => db.$executeRawUnsafe('INSERT INTO outage_probe VALUES (1)'));
  expect(isDatabaseUnavailable(duplicate.error)).toBe(false);
  const syntax = await failure(() => db.$queryRawUnsafe('SELEC 1'));
  expect(isDatabaseUnavailable(syntax.error)).toBe(false);
  // A reset from another service (e.g. a key share node over HTTP) is not the database.
  const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  expect(isDatabaseUnavailable(new TypeError('fetch failed', { cause: reset }))).toBe(false);
  expect(isDatabaseUnavailable(new Error('Something else'))).toBe(false);
});
