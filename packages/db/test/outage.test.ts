/**
 * Bounded database waits and the outage classification: a real PostgreSQL behind a TCP relay
 * that can stall, cut or refuse connections.
 */
import { createDb, directSql, isDatabaseUnavailable, Prisma, type PrismaClient } from '../src/index.js';
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

// Every case runs both ways a statement reaches the database: through Prisma, and on pg
// directly (directSql, the signing paths' hot statements), whose errors are classified apart.
const paths: [string, (db: PrismaClient, query: Prisma.Sql) => Promise<unknown>][] = [
  ['Prisma', (db, query) => db.$queryRaw(query)],
  ['direct', (db, query) => directSql(db).rows(query)],
];

describe.each(paths)('through %s', (_path, run) => {
  const query = (sql: Prisma.Sql) => run(db, sql);

  test('a statement longer than the statement timeout is cancelled by the server, and the pool stays usable', async () => {
    const { error, ms } = await failure(() => query(Prisma.sql`SELECT pg_sleep(5)`));
    expect(ms).toBeLessThan(2000);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(await query(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });

  test('a stalled server: queries give up after the statement timeout plus the read margin, and recover on resume', async () => {
    proxy.stall();
    const results = await Promise.all([1, 2, 3, 4].map(() => failure(() => query(Prisma.sql`SELECT 1`))));
    for (const { error, ms } of results) {
      expect(isDatabaseUnavailable(error)).toBe(true);
      // 300 ms statement timeout + 2 s client margin, plus waiting for a pool slot (2 connections).
      expect(ms).toBeLessThan(6000);
    }
    proxy.resume();
    expect(await query(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  }, 20_000);

  test('connections cut mid-use and a refused server are outages too', async () => {
    const slow = failure(() => query(Prisma.sql`SELECT pg_sleep(0.2)`));
    await new Promise((r) => setTimeout(r, 50));
    proxy.cut();
    expect(isDatabaseUnavailable((await slow).error)).toBe(true);

    await proxy.stop();
    // A new client: no pooled connection left, so the next statement has to connect and is refused.
    const fresh = createDb(proxy.url(t.url), { connectTimeoutMs: 400, statementTimeoutMs: 300 });
    try {
      const { error, ms } = await failure(() => run(fresh, Prisma.sql`SELECT 1`));
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(ms).toBeLessThan(2000);
    } finally {
      await fresh.$disconnect();
    }
  });

  test('a pool with every connection taken: the wait ends at the connect timeout, as an outage', async () => {
    // Both of the pool's connections held (idle in a transaction, so no statement timeout ends
    // it) for longer than the 400 ms connect timeout.
    const hold = () => new Promise((r) => setTimeout(r, 900));
    const held = [1, 2].map(() => db.$transaction(async (tx) => (await tx.$executeRaw`SELECT 1`, await hold()), { timeout: 5000, maxWait: 5000 }));
    await new Promise((r) => setTimeout(r, 100));
    const { error, ms } = await failure(() => query(Prisma.sql`SELECT 1`));
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(350);
    await Promise.all(held);
  });

  test('errors that are not an outage are not classified as one', async () => {
    await db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS outage_probe (id int PRIMARY KEY)');
    await db.$executeRawUnsafe('INSERT INTO outage_probe VALUES (1) ON CONFLICT DO NOTHING');
    const duplicate = await failure(() => query(Prisma.sql`INSERT INTO outage_probe VALUES (1)`));
    expect(isDatabaseUnavailable(duplicate.error)).toBe(false);
    const syntax = await failure(() => query(Prisma.sql`SELEC 1`));
    expect(isDatabaseUnavailable(syntax.error)).toBe(false);
  });
});

test('a socket error from another service is not the database', () => {
  // A reset from another service (e.g. a key share node over HTTP) is not the database.
  const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', syscall: 'read' });
  expect(isDatabaseUnavailable(new TypeError('fetch failed', { cause: reset }))).toBe(false);
  expect(isDatabaseUnavailable(new Error('Something else'))).toBe(false);
});
