import { randomBytes } from 'node:crypto';
import { listMountedRoutes } from '@svc/http';
import request from 'supertest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { JWT_SECRET, makeCustomer, signIn, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const BASE = '/customer_dashboard/v1';
const call = (path: string, token?: string, body?: object) => {
  let req = request(h.app).post(`${BASE}${path}`);
  if (token) req = req.set('authorization', `Bearer ${token}`);
  return body === undefined ? req : req.send(body);
};

describe('customer/info and customer/api_keys', () => {
  it("show only the signed-in user's own customer", async () => {
    const a = await makeCustomer(h);
    const b = await makeCustomer(h);
    const tokenA = await signIn(h, a.email, a.password);

    const info = await call('/customer/info', tokenA);
    expect(info.status).toBe(200);
    expect(info.body.data.customer.customer_id).toBe(a.customer.id);
    expect(info.body.data.user.user_id).toBe(a.user.id);
    expect(info.body.data.metadata).toEqual({ dashboard_user_count: 1, api_key_count: 1, active_api_key_count: 1 });

    const keys = await call('/customer/api_keys', tokenA);
    expect(keys.body.data.api_keys.map((k: { api_key_id: string }) => k.api_key_id)).toEqual([a.key.row.id]);
    expect(JSON.stringify(keys.body)).not.toContain(b.key.row.id);
    expect(keys.body.data.api_keys[0].key).toBeUndefined();
    expect(JSON.stringify(keys.body)).not.toContain(a.key.key);
    // No way to ask for another customer's data: unknown fields are refused.
    expect((await call('/customer/api_keys', tokenA, { customer_id: b.customer.id })).body.msg).toBe('Unknown field: customer_id');
  });

  it('pages API keys within documented bounds', async () => {
    const a = await makeCustomer(h);
    for (let i = 0; i < 3; i++) await h.t.db.apiKey.create({ data: { customerId: a.customer.id, label: `k${i}`, keyPrefix: 'svc_x', keyHash: randomBytes(32).toString('hex') } });
    const token = await signIn(h, a.email, a.password);
    const page = await call('/customer/api_keys', token, { limit: 2, offset: 1 });
    expect(page.body.data.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
    expect(page.body.data.api_keys).toHaveLength(2);
    expect((await call('/customer/api_keys', token, {})).body.data.pagination).toEqual({ limit: 20, offset: 0, total: 4 });
    for (const body of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { offset: 100001 }, { limit: '2' }]) {
      const res = await call('/customer/api_keys', token, body);
      expect([body, res.status, res.body.code]).toEqual([body, 400, 'INVALID_REQUEST']);
    }
  });

  it('answers 401 once the customer was deleted', async () => {
    const a = await makeCustomer(h);
    const token = await signIn(h, a.email, a.password);
    await h.t.db.customer.delete({ where: { id: a.customer.id } });
    for (const path of ['/customer/info', '/customer/api_keys', '/customer/auth/refresh']) {
      expect((await call(path, token)).status).toBe(401);
    }
  });
});

describe('token refresh and sign-out', () => {
  it('refresh gives a new token and revokes the old one; a token refreshes once', async () => {
    const a = await makeCustomer(h);
    const token = await signIn(h, a.email, a.password);
    const refreshed = await call('/customer/auth/refresh', token);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data).toMatchObject({ token: expect.any(String), user: { user_id: a.user.id }, customer: { customer_id: a.customer.id } });
    expect(refreshed.body.data.token).not.toBe(token);
    expect((await call('/customer/info', refreshed.body.data.token)).status).toBe(200);
    expect((await call('/customer/info', token)).status).toBe(401);
    expect((await call('/customer/auth/refresh', token)).status).toBe(401);

    const next = refreshed.body.data.token as string;
    const racing = await Promise.all(Array.from({ length: 5 }, () => call('/customer/auth/refresh', next)));
    expect(racing.filter((r) => r.status === 200)).toHaveLength(1);
    expect(racing.filter((r) => r.status === 401)).toHaveLength(4);
  });

  it('sign-out revokes the token', async () => {
    const a = await makeCustomer(h);
    const token = await signIn(h, a.email, a.password);
    expect((await call('/customer/auth/signout', token)).body).toEqual({ success: true, data: { message: 'Signed out' } });
    const reuse = await call('/customer/info', token);
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' });
  });
});

describe('token kinds (spec §5 rule 4)', () => {
  it('refuses admin and user JWTs with 403, missing or invalid ones with 401', async () => {
    const a = await makeCustomer(h);
    const admin = h.jwt.sign('admin', '00000000-0000-4000-8000-000000000001').token;
    const user = h.jwt.sign('user', '00000000-0000-4000-8000-000000000002', { wallet_id: 'w' }).token;
    // A customer token for a user that is not the signed-in one's customer is no key to it either.
    const forged = h.jwt.sign('customer', a.user.id, { customer_id: '00000000-0000-4000-8000-000000000003' }).token;
    const cases: [string | undefined, number, string][] = [
      [admin, 403, 'FORBIDDEN'],
      [user, 403, 'FORBIDDEN'],
      [undefined, 401, 'UNAUTHORIZED'],
      ['not.a.jwt', 401, 'UNAUTHORIZED'],
    ];
    for (const path of ['/customer/info', '/customer/api_keys', '/customer/auth/refresh', '/customer/auth/signout']) {
      for (const [token, status, code] of cases) {
        const res = await call(path, token);
        expect([path, token?.slice(0, 6), res.status, res.body.code]).toEqual([path, token?.slice(0, 6), status, code]);
      }
    }
    expect((await call('/customer/info', forged)).status).toBe(401);
  });
});

describe('service', () => {
  it('documents every mounted route with a response schema', () => {
    const { app, openapi } = createApp({ config: loadConfig({ JWT_SECRET }), db: h.t.db, mailer: h.mailer });
    const paths = openapi.paths as Record<string, Record<string, { responses: Record<string, { content?: { 'application/json'?: { schema: { properties: { data: unknown } } } } }> }>>;
    const mounted = listMountedRoutes(app).filter((r) => !r.startsWith('GET /docs'));
    expect(mounted).toEqual(expect.arrayContaining([
      'POST /customer_dashboard/v1/customer/auth/signin',
      'POST /customer_dashboard/v1/customer/auth/signup',
      'POST /customer_dashboard/v1/customer/info',
      'POST /customer_dashboard/v1/customer/api_keys',
    ]));
    for (const route of mounted) {
      const [method, path] = route.split(' ') as [string, string];
      const op = paths[path]?.[method.toLowerCase()];
      expect([route, op !== undefined]).toEqual([route, true]);
      if (!path.startsWith(BASE)) continue;
      const ok = op!.responses['200'] ?? op!.responses['201'];
      expect([route, ok?.content?.['application/json']?.schema.properties.data]).not.toEqual([route, { type: 'null' }]);
    }
  });

  it('is ready when the database answers, and checks its configuration', async () => {
    expect((await request(h.app).get('/ready')).body.data).toEqual({ status: 'ready' });
    expect(() => loadConfig({ JWT_SECRET, SMTP_HOST: 'smtp.example.com', SMTP_PORT: '25' })).toThrow('SMTP_PORT must be 587');
    expect(() => loadConfig({ JWT_SECRET, EMAIL_VERIFICATION_EXPIRATION_MINUTES: '0' })).toThrow('EMAIL_VERIFICATION_EXPIRATION_MINUTES');
    const config = loadConfig({ JWT_SECRET, MAIL_SPOOL_DIR: '/tmp/spool' });
    expect(config).toMatchObject({ port: 4230, jwtExpiresIn: 3600, emailVerificationExpirationMinutes: 5, mail: { devSpoolDir: '/tmp/spool', port: 587 } });
  });
});
