import { rateLimitStore, type PrismaClient } from '../src/index.js';
import { startTestDatabase, type TestDatabase } from '../src/testing.js';

let t: TestDatabase;
let db: PrismaClient;
beforeAll(async () => {
  t = await startTestDatabase();
  db = t.db;
});
afterAll(() => t.stop());

describe('rateLimitStore (fixed windows in PostgreSQL)', () => {
  it('counts every concurrent increment exactly once, across stores of the same limit (replicas)', async () => {
    const replicas = [rateLimitStore(db, 'loginLimit'), rateLimitStore(db, 'loginLimit')];
    for (const r of replicas) r.init({ windowMs: 60_000 });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => replicas[i % 2]!.increment('1.2.3.4|a@b.c')));
    expect(results.map((r) => r.totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const resets = new Set(results.map((r) => r.resetTime!.getTime()));
    expect(resets.size).toBe(1);
    expect([...resets][0]).toBeGreaterThan(Date.now() + 55_000);
    expect(await replicas[1]!.get('1.2.3.4|a@b.c')).toMatchObject({ totalHits: 40 });
    // Another limit with the same key counts apart.
    const other = rateLimitStore(db, 'mailLimit');
    other.init({ windowMs: 60_000 });
    expect((await other.increment('1.2.3.4|a@b.c')).totalHits).toBe(1);
  });

  it('a window that has passed starts again at 1; decrement and resetKey', async () => {
    const store = rateLimitStore(db, 'shortLimit');
    store.init({ windowMs: 50 });
    expect((await store.increment('k')).totalHits).toBe(1);
    expect((await store.increment('k')).totalHits).toBe(2);
    await store.decrement('k');
    expect(await store.get('k')).toMatchObject({ totalHits: 1 });
    await new Promise((r) => setTimeout(r, 80));
    expect(await store.get('k')).toBeUndefined();
    expect((await store.increment('k')).totalHits).toBe(1);
    await store.resetKey('k');
    expect(await db.rateLimitCounter.count({ where: { key: 'shortLimit:k' } })).toBe(0);
  });
});
