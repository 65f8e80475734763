import { hashApiKey } from '@svc/auth';
import request from 'supertest';
import { makeCustomer, signIn, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const KEYS = '/customer_dashboard/v1/customer/api_keys';
const call = (path: string, token: string, body?: object) => {
  const req = request(h.app).post(`${KEYS}${path}`).set('authorization', `Bearer ${token}`);
  return body === undefined ? req : req.send(body);
};
/** The customer's key rows as stored, to show a refused request changed nothing. */
const rowsOf = (customerId: string) => h.t.db.apiKey.findMany({ where: { customerId }, orderBy: { id: 'asc' } });

describe('self-serve API keys', () => {
  it('creates a key shown once and stored as its SHA-256 only, with label and normalised origins', async () => {
    const a = await makeCustomer(h);
    const token = await signIn(h, a.email, a.password);
    const created = await call('/create', token, {
      label: '  web app  ',
      allowed_origins: ['https://App.Example.com', 'https://app.example.com:443/', 'http://localhost:3000', 'http://[::1]:8080'],
    });
    expect(created.status).toBe(201);
    const key = created.body.data;
    expect(key).toMatchObject({
      customer_id: a.customer.id,
      label: 'web app',
      allowed_origins: ['https://app.example.com', 'http://localhost:3000', 'http://[::1]:8080'],
      status: 'ACTIVE',
      revoked_at: null,
    });
    expect(key.key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(key.key_prefix).toBe(key.key.slice(0, 12));

    const row = await h.t.db.apiKey.findUniqueOrThrow({ where: { id: key.api_key_id } });
    expect(row.keyHash).toBe(hashApiKey(key.key));
    expect(JSON.stringify(row)).not.toContain(key.key);

    const list = await call('', token);
    expect(list.body.data.api_keys.map((k: { api_key_id: string }) => k.api_key_id)).toEqual([key.api_key_id, a.key.row.id]);
    expect(list.body.data.api_keys[0].allowed_origins).toEqual(key.allowed_origins);
    expect(JSON.stringify(list.body)).not.toContain(key.key);
    expect(list.body.data.api_keys.every((k: object) => !('key' in k))).toBe(true);
  });

  it('creates with defaults: label "default", any origin', async () => {
    const a = await makeCustomer(h);
    const token = await signIn(h, a.email, a.password);
    const created = await call('/create', token);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ label: 'default', allowed_origins: [] });
  });

  it('relabels a key and replaces or clears its origins', async () => {
    const a = await makeCustomer(h);
    const token = await signIn(h, a.email, a.password);
    const id = a.key.row.id;
    const relabelled = await call('/update', token, { api_key_id: id, label: 'mobile' });
    expect(relabelled.status).toBe(200);
    expect(relabelled.body.data).toMatchObject({ api_key_id: id, label: 'mobile', allowed_origins: [] });
    expect(relabelled.body.data.key).toBeUndefined();

    const limited = await call('/update', token, { api_key_id: id, allowed_origins: ['https://a.example', 'https://A.example'] });
    expect(limited.body.data).toMatchObject({ label: 'mobile', allowed_origins: ['https://a.example'] });
    const both = await call('/update', token, { api_key_id: id, label: 'web', allowed_origins: ['https://b.example'] });
    expect(both.body.data).toMatchObject({ label: 'web', allowed_origins: ['https://b.example'] });
    const cleared = await call('/update', token, { api_key_id: id, allowed_origins: [] });
    expect(cleared.body.data).toMatchObject({ label: 'web', allowed_origins: [] });
  });

  it('revokes a key; revoking again answers it unchanged', async () => {
    const a = await makeCustomer(h);
    const token = await signIn(h, a.email, a.password);
    const revoked = await call('/revoke', token, { api_key_id: a.key.row.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ api_key_id: a.key.row.id, status: 'REVOKED', revoked_at: expect.any(String) });
    const again = await call('/revoke', token, { api_key_id: a.key.row.id });
    expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at);
    const info = await request(h.app).post('/customer_dashboard/v1/customer/info').set('authorization', `Bearer ${token}`);
    expect(info.body.data.metadata).toMatchObject({ api_key_count: 1, active_api_key_count: 0 });
  });

  it("answers another customer's key, or an unknown one, with 404 and leaves it alone", async () => {
    const a = await makeCustomer(h);
    const b = await makeCustomer(h);
    const token = await signIn(h, a.email, a.password);
    const before = await rowsOf(b.customer.id);
    for (const [path, body] of [
      ['/revoke', { api_key_id: b.key.row.id }],
      ['/update', { api_key_id: b.key.row.id, label: 'taken over' }],
      ['/update', { api_key_id: b.key.row.id, allowed_origins: ['https://evil.example'] }],
      ['/revoke', { api_key_id: '00000000-0000-4000-8000-000000000000' }],
    ] as const) {
      const res = await call(path, token, body);
      expect([path, res.status, res.body]).toEqual([path, 404, { success: false, code: 'API_KEY_NOT_FOUND', msg: 'API key not found' }]);
    }
    expect(await rowsOf(b.customer.id)).toEqual(before);
    // The customer is the token's, never the request's.
    const foreign = await call('/create', token, { customer_id: b.customer.id });
    expect([foreign.status, foreign.body.msg]).toEqual([400, 'Unknown field: customer_id']);
  });

  it('refuses bad labels and origins with 400 and changes nothing', async () => {
    const a = await makeCustomer(h);
    const token = await signIn(h, a.email, a.password);
    const id = a.key.row.id;
    const before = await rowsOf(a.customer.id);
    const tooMany = Array.from({ length: 21 }, (_, i) => `https://h${i}.example`);
    const cases: [string, object, string][] = [
      ['/create', { label: '' }, 'label must be 1 to 100 characters'],
      ['/create', { label: '   ' }, 'label must be 1 to 100 characters'],
      ['/create', { label: 'x'.repeat(101) }, 'label must be 1 to 100 characters'],
      ['/create', { label: 5 }, 'label must be a string'],
      ['/create', { label: 'a\u0000b' }, 'label must be valid text (no NUL, no unpaired surrogate)'],
      ['/create', { allowed_origins: 'https://a.example' }, 'allowed_origins must be an array of at most 20 origins'],
      ['/create', { allowed_origins: tooMany }, 'allowed_origins must be an array of at most 20 origins'],
      ['/create', { allowed_origins: [7] }, 'allowed_origins[0] must be a string'],
      ['/create', { allowed_origins: [null] }, 'allowed_origins[0] must be a string'],
      ['/create', { allowed_origins: [`https://${'a'.repeat(250)}.example`] }, 'allowed_origins[0] must be at most 255 characters'],
      ...['https://a.example/path', 'https://*.example.com', '*', 'null', 'ftp://a.example', 'a.example', 'https://user@a.example', 'https://a.example?x=1', 'https://a.example#f', 'https://a.example:99999', ' https://a.example'].map(
        (origin): [string, object, string] => ['/create', { allowed_origins: ['https://ok.example', origin] }, 'allowed_origins[1] must be an origin such as https://app.example.com (http or https, host and optional port, no path, no wildcard)'],
      ),
      ['/update', { api_key_id: id }, 'label or allowed_origins is required'],
      ['/update', { api_key_id: id, label: '' }, 'label must be 1 to 100 characters'],
      ['/update', { api_key_id: id, label: 'ok', allowed_origins: ['https://a.example/x'] }, 'allowed_origins[0] must be an origin such as https://app.example.com (http or https, host and optional port, no path, no wildcard)'],
      ['/update', { label: 'ok' }, 'api_key_id is required'],
      ['/update', { api_key_id: 'not-a-uuid', label: 'ok' }, 'api_key_id must be a UUID'],
      ['/revoke', { api_key_id: [id] }, 'api_key_id must be a UUID'],
      ['/revoke', {}, 'api_key_id is required'],
    ];
    for (const [path, body, msg] of cases) {
      const res = await call(path, token, body);
      expect([path, body, res.status, res.body]).toEqual([path, body, 400, { success: false, code: 'INVALID_REQUEST', msg }]);
    }
    expect(await rowsOf(a.customer.id)).toEqual(before);
  });

  it('needs a customer JWT', async () => {
    for (const path of ['/create', '/update', '/revoke']) {
      const res = await request(h.app).post(`${KEYS}${path}`).send({});
      expect([path, res.status, res.body.code]).toEqual([path, 401, 'UNAUTHORIZED']);
    }
  });
});
