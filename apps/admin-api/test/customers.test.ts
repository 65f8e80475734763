import { apiKeyGuard } from '@svc/auth';
import { apiKeyRepo } from '@svc/accounts';
import { createLogger, createServiceApp, defineRoute } from '@svc/http';
import request from 'supertest';
import { createCustomerRequest, makeCustomer, PNG_1PX, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const auth = () => ({ authorization: `Bearer ${h.adminToken}` });

/** A stand-in for tss-api: a route behind apiKeyGuard with the shared live-key lookup. */
function keyProtectedApp() {
  return createServiceApp({
    name: 'tss-api-stand-in',
    logger: createLogger('t', 'silent'),
    routes: [
      defineRoute({
        method: 'post',
        path: '/tss/v2/sign_ed25519/round1',
        summary: 'needs an API key',
        guards: [apiKeyGuard((hash) => apiKeyRepo(h.t.db).findLive(hash))],
        errors: ['INVALID_API_KEY'],
        response: { type: 'object', required: ['apiKeyId', 'customerId'], properties: { apiKeyId: { type: 'string' }, customerId: { type: 'string' } } },
        handler: (_req, res) => res.locals.apiKey,
      }),
    ],
  }).app;
}

describe('create_customer', () => {
  it('creates the customer, a verified dashboard user and an API key shown once', async () => {
    const res = await createCustomerRequest(
      h,
      { email: 'Acme@Example.com', password: 'acme password 1', label: '  Acme  ' },
      { buffer: PNG_1PX, filename: 'logo.png', contentType: 'image/png' },
    );
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.customer).toMatchObject({
      customer_id: data.customer_id,
      email: 'acme@example.com',
      label: 'Acme',
      status: 'ACTIVE',
      has_logo: true,
      logo_mime_type: 'image/png',
      logo: `data:image/png;base64,${PNG_1PX.toString('base64')}`,
    });
    expect(data.user).toMatchObject({ customer_id: data.customer_id, email: 'acme@example.com', email_verified: true });
    expect(data.api_key).toMatchObject({ customer_id: data.customer_id, status: 'ACTIVE', label: 'default', revoked_at: null });
    expect(data.api_key.key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(data.api_key.key.startsWith(data.api_key.key_prefix)).toBe(true);

    const keyRow = await h.t.db.apiKey.findUniqueOrThrow({ where: { id: data.api_key.api_key_id } });
    expect(keyRow.keyHash).not.toContain(data.api_key.key);
    const user = await h.t.db.customerDashboardUser.findUniqueOrThrow({ where: { id: data.user.user_id } });
    expect(user.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(Buffer.from(await h.t.db.customer.findUniqueOrThrow({ where: { id: data.customer_id } }).then((c) => c.logo!))).toEqual(PNG_1PX);

    // The key works at once with the tss-api guard.
    const used = await request(keyProtectedApp()).post('/tss/v2/sign_ed25519/round1').set('x-api-key', data.api_key.key);
    expect(used.body.data).toEqual({ apiKeyId: data.api_key.api_key_id, customerId: data.customer_id, allowedOrigins: [] });
  });

  it('works without a logo', async () => {
    const data = await makeCustomer(h);
    expect(data.customer).toMatchObject({ has_logo: false, logo: null, logo_mime_type: null });
  });

  it.each([
    ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg', 'image/svg+xml'],
    ['text', Buffer.from('hello'), 'logo.txt', 'text/plain'],
    ['a PNG label on other bytes', Buffer.from('GIF89a-not-a-png-at-all'), 'logo.png', 'image/png'],
  ])('refuses a %s logo with 400 and creates nothing', async (_name, buffer, filename, contentType) => {
    const email = `logo-${filename}-${Date.now()}@example.com`;
    const res = await createCustomerRequest(h, { email, password: 'valid password 1', label: 'L' }, { buffer, filename, contentType });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'logo must be a PNG, JPEG or WebP image' });
    expect(await h.t.db.customer.count({ where: { email } })).toBe(0);
  });

  it('refuses a logo over 512 KB with 413', async () => {
    const big = Buffer.concat([PNG_1PX, Buffer.alloc(512 * 1024)]);
    const email = `big-${Date.now()}@example.com`;
    const res = await createCustomerRequest(h, { email, password: 'valid password 1', label: 'L' }, { buffer: big, filename: 'big.png', contentType: 'image/png' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, code: 'PAYLOAD_TOO_LARGE', msg: 'logo must be at most 512 KB' });
    expect(await h.t.db.customer.count({ where: { email } })).toBe(0);
  });

  it('refuses a file in another field, and JSON instead of multipart', async () => {
    const other = await request(h.app)
      .post('/svc_admin/v1/customer/create_customer')
      .set(auth())
      .field('email', 'x@example.com')
      .attach('avatar', PNG_1PX, { filename: 'a.png', contentType: 'image/png' });
    expect(other.status).toBe(400);
    expect(other.body.msg).toBe('Only one file is accepted, in the field "logo"');
    const json = await request(h.app).post('/svc_admin/v1/customer/create_customer').set(auth()).send({ email: 'x@example.com', password: 'valid password 1', label: 'L' });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it.each([
    [{ password: 'valid password 1', label: 'L' }, 'email is required'],
    [{ email: 'nope', password: 'valid password 1', label: 'L' }, 'email must be a valid email address'],
    [{ email: 'a@example.com', label: 'L' }, 'password is required'],
    [{ email: 'a@example.com', password: 'short', label: 'L' }, 'password must be 10 to 128 characters'],
    [{ email: 'a@example.com', password: 'valid password 1' }, 'label is required'],
    [{ email: 'a@example.com', password: 'valid password 1', label: '   ' }, 'label must be 1 to 100 characters'],
    [{ email: 'a@example.com', password: 'valid password 1', label: 'L', admin: 'yes' }, 'Unknown field: admin'],
  ])('validates multipart fields: %j', async (fields, msg) => {
    const res = await createCustomerRequest(h, fields as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });

  it('answers 409 for an email already in use', async () => {
    const first = await makeCustomer(h);
    const res = await createCustomerRequest(h, { email: first.customer.email, password: 'valid password 1', label: 'Dup' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_ALREADY_EXISTS');
  });
});

describe('get_customer_list and get_customer', () => {
  it('pages newest first with API keys, within documented bounds', async () => {
    const a = await makeCustomer(h);
    const b = await makeCustomer(h);
    const page = await request(h.app).get('/svc_admin/v1/customer/get_customer_list?limit=2').set(auth());
    expect(page.status).toBe(200);
    expect(page.body.data.customers.map((c: { customer_id: string }) => c.customer_id)).toEqual([b.customer_id, a.customer_id]);
    expect(page.body.data.customers[0]).toMatchObject({ dashboard_user_count: 1, api_keys: [expect.objectContaining({ api_key_id: b.api_key.api_key_id })] });
    expect(page.body.data.customers[0].api_keys[0].key).toBeUndefined();
    expect(page.body.data.customers[0].logo).toBeUndefined();
    const total = page.body.data.pagination.total;
    expect(page.body.data.pagination).toEqual({ limit: 2, offset: 0, total: await h.t.db.customer.count() });

    const next = await request(h.app).get('/svc_admin/v1/customer/get_customer_list?limit=2&offset=1').set(auth());
    expect(next.body.data.customers[0].customer_id).toBe(a.customer_id);
    const defaults = await request(h.app).get('/svc_admin/v1/customer/get_customer_list').set(auth());
    expect(defaults.body.data.pagination).toEqual({ limit: 20, offset: 0, total });

    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'offset=100001']) {
      const bad = await request(h.app).get(`/svc_admin/v1/customer/get_customer_list?${q}`).set(auth());
      expect([q, bad.status, bad.body.code]).toEqual([q, 400, 'INVALID_REQUEST']);
    }
  });

  it('returns one customer with its user accounts', async () => {
    const c = await makeCustomer(h);
    const res = await request(h.app).get(`/svc_admin/v1/customer/get_customer/${c.customer_id}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ customer_id: c.customer_id, users: [{ user_id: c.user.user_id, email: c.customer.email }], api_keys: [{ api_key_id: c.api_key.api_key_id }] });
    expect(JSON.stringify(res.body)).not.toContain('argon2');

    const missing = await request(h.app).get('/svc_admin/v1/customer/get_customer/00000000-0000-4000-8000-000000000000').set(auth());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, code: 'CUSTOMER_NOT_FOUND', msg: 'Customer not found' });
    const bad = await request(h.app).get('/svc_admin/v1/customer/get_customer/nope').set(auth());
    expect(bad.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'customer_id must be a UUID' });
  });
});

describe('delete_customer', () => {
  it('deletes the customer and its dashboard users, and its API keys stop working at once', async () => {
    const c = await makeCustomer(h);
    const extra = await request(h.app).post('/svc_admin/v1/customer/create_api_key').set(auth()).send({ customer_id: c.customer_id, label: 'second' });
    const second = await h.t.db.customerDashboardUser.create({
      data: { customerId: c.customer_id, email: `second-${Date.now()}@example.com`, passwordHash: 'x' },
    });
    const guarded = keyProtectedApp();
    expect((await request(guarded).post('/tss/v2/sign_ed25519/round1').set('x-api-key', c.api_key.key)).status).toBe(200);

    const res = await request(h.app).post('/svc_admin/v1/customer/delete_customer').set(auth()).send({ customer_id: c.customer_id });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ customer_id: c.customer_id, user_ids: [c.user.user_id, second.id], revoked_api_key_count: 2 });

    expect(await h.t.db.customerDashboardUser.count({ where: { customerId: c.customer_id } })).toBe(0);
    expect(await h.t.db.customer.count({ where: { id: c.customer_id } })).toBe(0);
    for (const key of [c.api_key.key, extra.body.data.key]) {
      const refused = await request(guarded).post('/tss/v2/sign_ed25519/round1').set('x-api-key', key);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('INVALID_API_KEY');
    }

    const again = await request(h.app).post('/svc_admin/v1/customer/delete_customer').set(auth()).send({ customer_id: c.customer_id });
    expect(again.status).toBe(404);
    const bad = await request(h.app).post('/svc_admin/v1/customer/delete_customer').set(auth()).send({});
    expect(bad.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'customer_id is required' });
  });
});

describe('API keys of a customer', () => {
  it('creates, lists and revokes; a revoked key is refused by the tss-api guard', async () => {
    const c = await makeCustomer(h);
    const created = await request(h.app).post('/svc_admin/v1/customer/create_api_key').set(auth()).send({ customer_id: c.customer_id, label: 'backend' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ label: 'backend', status: 'ACTIVE', key: expect.stringMatching(/^svc_/) });

    const list = await request(h.app).post('/svc_admin/v1/customer/get_api_key_list').set(auth()).send({ customer_id: c.customer_id, limit: 1 });
    expect(list.body.data.pagination).toEqual({ limit: 1, offset: 0, total: 2 });
    expect(list.body.data.api_keys).toHaveLength(1);
    expect(list.body.data.api_keys[0].key).toBeUndefined();

    const revoke = () =>
      request(h.app).post('/svc_admin/v1/customer/revoke_api_key').set(auth()).send({ customer_id: c.customer_id, api_key_id: created.body.data.api_key_id });
    const revoked = await revoke();
    expect(revoked.body.data).toMatchObject({ status: 'REVOKED', revoked_at: expect.any(String) });
    expect((await revoke()).body.data.revoked_at).toBe(revoked.body.data.revoked_at);
    const refused = await request(keyProtectedApp()).post('/tss/v2/sign_ed25519/round1').set('x-api-key', created.body.data.key);
    expect(refused.status).toBe(401);
    // The other key still works.
    expect((await request(keyProtectedApp()).post('/tss/v2/sign_ed25519/round1').set('x-api-key', c.api_key.key)).status).toBe(200);

    const other = await makeCustomer(h);
    const foreign = await request(h.app).post('/svc_admin/v1/customer/revoke_api_key').set(auth()).send({ customer_id: other.customer_id, api_key_id: c.api_key.api_key_id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('API_KEY_NOT_FOUND');
    const noCustomer = await request(h.app).post('/svc_admin/v1/customer/create_api_key').set(auth()).send({ customer_id: '00000000-0000-4000-8000-000000000000' });
    expect(noCustomer.body.code).toBe('CUSTOMER_NOT_FOUND');
    const badLimit = await request(h.app).post('/svc_admin/v1/customer/get_api_key_list').set(auth()).send({ customer_id: c.customer_id, limit: 1000 });
    expect(badLimit.body.msg).toBe('limit must be an integer between 1 and 100');
  });

  it('issues a key limited to browser origins (stored normalised), and refuses a malformed origin with nothing created', async () => {
    const c = await makeCustomer(h);
    const create = (allowed_origins: unknown) => request(h.app).post('/svc_admin/v1/customer/create_api_key').set(auth()).send({ customer_id: c.customer_id, allowed_origins });
    const created = await create(['HTTPS://App.Example.com:443/', 'https://app.example.com', 'http://localhost:5173']);
    expect(created.status).toBe(201);
    expect(created.body.data.allowed_origins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    const before = await h.t.db.apiKey.count({ where: { customerId: c.customer_id } });
    for (const bad of [['https://app.example.com/path'], ['*'], 'https://app.example.com', [42]]) {
      const refused = await create(bad);
      expect([bad, refused.status, refused.body.code]).toEqual([bad, 400, 'INVALID_REQUEST']);
    }
    expect(await h.t.db.apiKey.count({ where: { customerId: c.customer_id } })).toBe(before);
  });
});
