import { cacheApiKeyLookup, type ApiKeyOwner } from '../src/index.js';

/** A lookup over a mutable "database" that counts how often it is asked. */
function fakeDb() {
  const rows = new Map<string, ApiKeyOwner>([['h1', { apiKeyId: 'k1', customerId: 'c1' }]]);
  let calls = 0;
  let fail = false;
  return {
    rows,
    get calls() {
      return calls;
    },
    failNext(v: boolean) {
      fail = v;
    },
    lookup: async (hash: string) => {
      calls++;
      await new Promise((r) => setImmediate(r));
      if (fail) throw new Error('database unavailable');
      return rows.get(hash) ?? null;
    },
  };
}

describe('cacheApiKeyLookup', () => {
  it('answers from the cache within the TTL and sees a revocation once it has passed', async () => {
    let t = 1_000;
    const db = fakeDb();
    const lookup = cacheApiKeyLookup(db.lookup, { ttlMs: 5_000, now: () => t });
    expect(await lookup('h1')).toEqual({ apiKeyId: 'k1', customerId: 'c1' });
    expect(await lookup('h1')).toEqual({ apiKeyId: 'k1', customerId: 'c1' });
    expect(db.calls).toBe(1);
    db.rows.delete('h1'); // revoked on another replica
    t += 4_999;
    expect(await lookup('h1')).not.toBeNull(); // still within the documented staleness bound
    t += 1;
    expect(await lookup('h1')).toBeNull();
    expect(db.calls).toBe(2);
  });

  it('caches an unknown key for the TTL too, so a retried revoked key stays off the database', async () => {
    let t = 0;
    const db = fakeDb();
    const lookup = cacheApiKeyLookup(db.lookup, { ttlMs: 1_000, now: () => t });
    expect(await lookup('nope')).toBeNull();
    expect(await lookup('nope')).toBeNull();
    expect(db.calls).toBe(1);
    db.rows.set('nope', { apiKeyId: 'k2', customerId: 'c2' });
    t += 1_000;
    expect(await lookup('nope')).toEqual({ apiKeyId: 'k2', customerId: 'c2' });
  });

  it('shares one database lookup between concurrent misses', async () => {
    const db = fakeDb();
    const lookup = cacheApiKeyLookup(db.lookup, { ttlMs: 1_000 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => lookup('h1')));
    expect(new Set(answers.map((a) => a?.apiKeyId))).toEqual(new Set(['k1']));
    expect(db.calls).toBe(1);
  });

  it('does not cache a failed lookup', async () => {
    const db = fakeDb();
    const lookup = cacheApiKeyLookup(db.lookup, { ttlMs: 60_000 });
    db.failNext(true);
    await expect(lookup('h1')).rejects.toThrow('database unavailable');
    db.failNext(false);
    expect(await lookup('h1')).toEqual({ apiKeyId: 'k1', customerId: 'c1' });
    expect(db.calls).toBe(2);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const db = fakeDb();
    const lookup = cacheApiKeyLookup(db.lookup, { ttlMs: 60_000, maxEntries: 2 });
    for (const h of ['a', 'b', 'c']) await lookup(h);
    await lookup('c');
    await lookup('b');
    expect(db.calls).toBe(3);
    await lookup('a'); // dropped when c came in
    expect(db.calls).toBe(4);
  });

  it('with ttlMs 0 asks the database every time; refuses a nonsensical TTL', async () => {
    const db = fakeDb();
    const lookup = cacheApiKeyLookup(db.lookup, { ttlMs: 0 });
    await lookup('h1');
    await lookup('h1');
    expect(db.calls).toBe(2);
    expect(() => cacheApiKeyLookup(db.lookup, { ttlMs: -1 })).toThrow(RangeError);
    expect(() => cacheApiKeyLookup(db.lookup, { ttlMs: Number.NaN })).toThrow(RangeError);
  });
});
