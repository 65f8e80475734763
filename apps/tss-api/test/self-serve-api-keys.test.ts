import { randomUUID } from 'node:crypto';
import { dashboardUserRepo, hashPassword } from '@svc/accounts';
import { createApp as createDashboardApp } from '@svc/dashboard-api/app';
import { loadConfig as loadDashboardConfig } from '@svc/dashboard-api/env';
import { createLogger, listen, type RunningServer } from '@svc/http';
import { startHarness, type Harness } from './support/harness.js';
import { freshIdToken } from './support/id-tokens.js';
import { ed25519KeygenBody, newEd25519Key, post } from './support/wallet-client.js';
import { createWalletUser, type WalletUser } from './support/wallet-user.js';

/*
 * Self-serve API keys end to end: a customer creates, limits and revokes keys in dashboard-api
 * (the real app, same PostgreSQL), and tss-api honours them. API_KEY_CACHE_SECONDS=0 on the main
 * replica so each change is seen on the next call; a second replica with a 1 s cache shows the
 * bound on revocation.
 */
describe('API keys created in the dashboard, used against tss-api', () => {
  let h: Harness;
  let dashboard: RunningServer;
  let dashboardUrl: string;
  let customerToken: string;
  let user: WalletUser;

  beforeAll(async () => {
    h = await startHarness({ API_KEY_CACHE_SECONDS: '0' });
    const config = loadDashboardConfig({ JWT_SECRET: h.config.jwt.secret, LOG_LEVEL: 'silent' });
    dashboard = await listen(createDashboardApp({ config, db: h.t.db, mailer: h.mailer, logger: createLogger('dashboard-test', 'silent') }).app, 0, '127.0.0.1');
    dashboardUrl = `http://127.0.0.1:${dashboard.port}`;
    const email = `owner-${randomUUID()}@example.com`;
    const customer = await h.t.db.customer.create({ data: { email, label: 'Self-serve app' } });
    await dashboardUserRepo(h.t.db).create({ customerId: customer.id, email, passwordHash: await hashPassword('customer password 1'), emailVerifiedAt: new Date() });
    const signedIn = await post<{ token: string }>(dashboardUrl, '/customer_dashboard/v1/customer/auth/signin', { email, password: 'customer password 1' });
    customerToken = signedIn.body.data!.token;
    user = await createWalletUser(h);
  });
  afterAll(async () => {
    await dashboard.close(0);
    await h.stop();
  });

  const keys = async <T = ApiKeyData>(path: string, body: object) => {
    const res = await post<T>(dashboardUrl, `/customer_dashboard/v1/customer/api_keys${path}`, body, { authorization: `Bearer ${customerToken}` });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data!;
  };

  /**
   * A signed-in call of a browser (with Origin) or a server (without) using `key`. The session id
   * is unknown: past the guards it is 404 SESSION_NOT_FOUND, so nothing changes either way.
   */
  const abortCall = async (key: string, origin?: string) => {
    const res = await fetch(`${h.baseUrl}/tss/v1/session/abort`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: user.headers.authorization!, 'x-api-key': key, ...(origin ? { origin } : {}) },
      body: JSON.stringify({ session_id: randomUUID() }),
    });
    return { status: res.status, code: ((await res.json()) as { code?: string }).code, allowOrigin: res.headers.get('access-control-allow-origin'), vary: res.headers.get('vary') };
  };
  const passed = { status: 404, code: 'SESSION_NOT_FOUND' };

  it('a key created in the dashboard works against tss-api at once; revoked, it is refused', async () => {
    const created = await keys<ApiKeyData & { key: string }>('/create', { label: 'web' });
    const idToken = (await freshIdToken(h, 'GOOGLE')).token;
    const keygen = await post<{ token: string; user: { user_id: string } }>(
      h.baseUrl,
      '/tss/v1/keygen',
      { ed25519: ed25519KeygenBody(await newEd25519Key()) },
      { authorization: `Bearer ${idToken}`, 'x-api-key': created.key },
    );
    expect(keygen.status).toBe(200);
    expect(keygen.body.data!.token).toEqual(expect.any(String));

    const cached = await h.variant({ API_KEY_CACHE_SECONDS: '1' });
    try {
      expect(await abortCall(created.key)).toMatchObject(passed);
      expect((await post(cached.baseUrl, '/tss/v1/session/abort', { session_id: randomUUID() }, { ...user.headers, 'x-api-key': created.key })).body.code).toBe('SESSION_NOT_FOUND');

      const revoked = await keys('/revoke', { api_key_id: created.api_key_id });
      expect(revoked.status).toBe('REVOKED');
      const revokedAt = Date.now();
      expect(await abortCall(created.key)).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
      // The replica that cached the key refuses it within its API_KEY_CACHE_SECONDS.
      while ((await post(cached.baseUrl, '/tss/v1/session/abort', { session_id: randomUUID() }, { ...user.headers, 'x-api-key': created.key })).body.code !== 'INVALID_API_KEY') {
        expect(Date.now() - revokedAt).toBeLessThan(1_500);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await cached.close();
    }
  });

  it('a key with allowed origins: listed origin passes with its Access-Control-Allow-Origin, another is 403, no Origin is unaffected', async () => {
    const { key } = await keys<ApiKeyData & { key: string }>('/create', { label: 'limited', allowed_origins: ['https://Wallet.Example:443/', 'http://localhost:3000'] });

    for (const origin of ['https://wallet.example', 'http://localhost:3000']) {
      const ok = await abortCall(key, origin);
      expect([origin, ok]).toMatchObject([origin, { ...passed, allowOrigin: origin }]);
      expect(ok.vary).toMatch(/origin/i);
    }
    for (const origin of ['https://evil.example', 'http://wallet.example', 'https://wallet.example:8443', 'http://localhost:3001', 'null']) {
      expect([origin, await abortCall(key, origin)]).toEqual([origin, { status: 403, code: 'ORIGIN_NOT_ALLOWED', allowOrigin: null, vary: expect.stringMatching(/origin/i) }]);
    }
    // Servers and the SDK in Node send no Origin: the list does not apply to them.
    expect(await abortCall(key)).toMatchObject({ ...passed, allowOrigin: null });
  });

  it('the preflight stays permissive: it carries no API key to check', async () => {
    const res = await fetch(`${h.baseUrl}/tss/v1/session/abort`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,x-api-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/x-api-key/i);
  });

  it('a key without allowed origins answers any origin, as before; origins set or cleared later apply on the next call', async () => {
    const created = await keys<ApiKeyData & { key: string }>('/create', {});
    expect(created.allowed_origins).toEqual([]);
    expect(await abortCall(created.key, 'https://anyone.example')).toMatchObject({ ...passed, allowOrigin: 'https://anyone.example' });

    await keys('/update', { api_key_id: created.api_key_id, allowed_origins: ['https://app.example'] });
    expect(await abortCall(created.key, 'https://anyone.example')).toMatchObject({ status: 403, code: 'ORIGIN_NOT_ALLOWED', allowOrigin: null });
    expect(await abortCall(created.key, 'https://app.example')).toMatchObject({ ...passed, allowOrigin: 'https://app.example' });

    await keys('/update', { api_key_id: created.api_key_id, allowed_origins: [] });
    expect(await abortCall(created.key, 'https://anyone.example')).toMatchObject({ ...passed, allowOrigin: 'https://anyone.example' });
  });

  it('routes without an API key keep answering any origin', async () => {
    const res = await fetch(`${h.baseUrl}/tss/v1/user/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ email: `nobody-${randomUUID()}@example.com` }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://evil.example');
  });
});

interface ApiKeyData {
  api_key_id: string;
  status: string;
  allowed_origins: string[];
}
