import { issueApiKey } from '@svc/auth';
import { startHarness, type Harness } from './support/harness.js';
import { post } from './support/wallet-client.js';
import { createWalletUser } from './support/wallet-user.js';

// API key lookups are reused for API_KEY_CACHE_SECONDS per replica: a revocation written to the
// database (by admin-api, on any replica) must be seen by every replica within that bound.
describe('API key lookup cache (API_KEY_CACHE_SECONDS)', () => {
  let h: Harness;
  let bearer: string;
  beforeAll(async () => {
    h = await startHarness({ API_KEY_CACHE_SECONDS: '1' });
    bearer = `Bearer ${(await createWalletUser(h)).token}`;
  });
  afterAll(() => h.stop());

  // A valid user token and an empty body: whichever guard runs first, the call is refused as
  // INVALID_API_KEY when the key is refused, and by validation (400) when it is accepted.
  const call = (baseUrl: string, key: string) => post(baseUrl, '/tss/v1/sign/step2', {}, { authorization: bearer, 'x-api-key': key });
  const refusedForKey = async (baseUrl: string, key: string) => {
    const res = await call(baseUrl, key);
    if (res.status !== 400 && res.body.code !== 'INVALID_API_KEY') throw new Error(`unexpected ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.code === 'INVALID_API_KEY';
  };

  it('a key revoked in the database is refused by two replicas within the TTL', async () => {
    const other = await h.variant({ API_KEY_CACHE_SECONDS: '1' });
    try {
      const issued = issueApiKey();
      const row = await h.t.db.apiKey.create({ data: { customerId: h.customerId, keyPrefix: issued.displayPrefix, keyHash: issued.hash, label: 'cached' } });
      for (const url of [h.baseUrl, other.baseUrl]) expect(await refusedForKey(url, issued.key)).toBe(false); // now cached as live
      await h.t.db.apiKey.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
      const revokedAt = Date.now();
      for (const url of [h.baseUrl, other.baseUrl]) {
        while (!(await refusedForKey(url, issued.key))) {
          expect(Date.now() - revokedAt).toBeLessThan(1_500); // TTL + scheduling slack
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    } finally {
      await other.close();
    }
  });

  it('a suspended customer is refused within the TTL as well', async () => {
    const issued = issueApiKey();
    const customer = await h.t.db.customer.create({ data: { label: 'soon suspended', email: `s-${Date.now()}@example.com` } });
    await h.t.db.apiKey.create({ data: { customerId: customer.id, keyPrefix: issued.displayPrefix, keyHash: issued.hash, label: 'k' } });
    expect(await refusedForKey(h.baseUrl, issued.key)).toBe(false);
    await h.t.db.customer.update({ where: { id: customer.id }, data: { status: 'SUSPENDED' } });
    const t0 = Date.now();
    while (!(await refusedForKey(h.baseUrl, issued.key))) {
      expect(Date.now() - t0).toBeLessThan(1_500);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
