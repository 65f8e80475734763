import { ARGON2_OPTIONS } from '@svc/accounts';
import argon2 from 'argon2';
import { createLogger } from '@svc/http';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { JWT_SECRET, mailedCode, makeCustomer, signIn, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

// The service's clock (JWT iat, exp and auth_time all come from Date.now), set by a test; put
// back after each.
const realNow = Date.now;
const setClock = (ms: number) => {
  Date.now = () => ms;
};
afterEach(() => {
  Date.now = realNow;
});

const BASE = '/customer_dashboard/v1/customer';
const call = (path: string, token: string, body?: object, app: Express = h.app) => {
  const req = request(app).post(`${BASE}${path}`).set('authorization', `Bearer ${token}`);
  return body === undefined ? req : req.send(body);
};
const refresh = async (token: string, app: Express = h.app): Promise<string> => {
  const res = await call('/auth/refresh', token, undefined, app);
  if (res.status !== 200) throw new Error(`refresh failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token as string;
};
const claimsOf = (token: string) => {
  const result = h.jwt.verify('customer', token);
  if (!result.ok) throw new Error(`not a live customer token: ${result.reason}`);
  return result.claims;
};

/** The owner's reset through the mailed code, as a victim of a stolen token would do it. */
async function resetPassword(email: string, newPassword: string, mailCount = 1): Promise<void> {
  expect((await request(h.app).post(`${BASE}/auth/request_password_reset`).send({ email })).status).toBe(200);
  const code = await mailedCode(h, email, mailCount);
  const res = await request(h.app).post(`${BASE}/auth/reset_password`).send({ email, code, new_password: newPassword });
  expect(res.body).toEqual({ success: true, data: { message: 'Password changed' } });
}

/** Asserts every authenticated route refuses the token with 401 and that nothing was created with it. */
async function expectCutOff(token: string, customerId: string): Promise<void> {
  const keysBefore = await h.t.db.apiKey.count({ where: { customerId } });
  for (const [path, body] of [
    ['/info', undefined],
    ['/api_keys', {}],
    ['/api_keys/create', { label: 'attacker' }],
    ['/auth/refresh', undefined],
    ['/auth/signout', undefined],
  ] as const) {
    const res = await call(path, token, body);
    expect([path, res.status, res.body.code]).toEqual([path, 401, 'UNAUTHORIZED']);
  }
  expect(await h.t.db.apiKey.count({ where: { customerId } })).toBe(keysBefore);
}

describe('a password reset revokes every token issued before it', () => {
  it('cuts off the old and the refreshed tokens on every route; a new sign-in works', async () => {
    const a = await makeCustomer(h);
    const stolen = await signIn(h, a.email, a.password);
    const stolenRefreshed = await refresh(stolen);
    const otherDevice = await signIn(h, a.email, a.password);
    // Before the reset the copies work (so the 401s below are the reset's doing).
    expect((await call('/info', stolenRefreshed)).status).toBe(200);
    expect((await call('/api_keys/create', otherDevice, { label: 'before reset' })).status).toBe(201);

    await resetPassword(a.email, 'the owner new password');

    await expectCutOff(stolenRefreshed, a.customer.id);
    await expectCutOff(otherDevice, a.customer.id);
    await expectCutOff(stolen, a.customer.id);

    const fresh = await signIn(h, a.email, 'the owner new password');
    expect((await call('/info', fresh)).status).toBe(200);
    expect((await call('/api_keys/create', fresh, { label: 'after reset' })).status).toBe(201);
    const freshRefreshed = await refresh(fresh);
    expect((await call('/info', freshRefreshed)).status).toBe(200);
  });

  it('holds on every replica at once: a token checked by another app instance on the same database', async () => {
    const a = await makeCustomer(h);
    const replica = createApp({ config: loadConfig({ JWT_SECRET, LOG_LEVEL: 'silent', DATABASE_URL: h.t.url }), db: h.t.db, mailer: h.mailer, logger: createLogger('replica', 'silent') }).app;
    const token = await signIn(h, a.email, a.password);
    expect((await call('/info', token, undefined, replica)).status).toBe(200);
    await resetPassword(a.email, 'replica new password');
    expect((await call('/info', token, undefined, replica)).status).toBe(401);
    expect((await call('/api_keys/create', token, {}, replica)).status).toBe(401);
  });

  it('tells tokens of the same second apart: issued before the reset refused, right after it accepted', async () => {
    const a = await makeCustomer(h);
    // Freeze the clock in the middle of one second: every token below has the same iat, so only
    // something finer than a time in seconds can tell the two sign-ins apart.
    const second = Math.floor(Date.now() / 1000) * 1000 + 500;
    setClock(second);
    const before = await signIn(h, a.email, a.password);
    await resetPassword(a.email, 'same second password');
    const after = await signIn(h, a.email, 'same second password');
    expect(claimsOf(before).iat).toBe(claimsOf(after).iat);
    expect((await call('/info', before)).status).toBe(401);
    expect((await call('/info', after)).status).toBe(200);
  });

  it('a second reset revokes the tokens signed in after the first, and a rehash at sign-in revokes nothing', async () => {
    const a = await makeCustomer(h);
    await resetPassword(a.email, 'first new password');
    const between = await signIn(h, a.email, 'first new password');
    // A stored hash with weaker argon2 parameters is replaced at the next sign-in: the same
    // password, so no token is revoked by it.
    const weak = await argon2.hash('first new password', { ...ARGON2_OPTIONS, memoryCost: 8192 });
    await h.t.db.customerDashboardUser.update({ where: { id: a.user.id }, data: { passwordHash: weak } });
    await signIn(h, a.email, 'first new password');
    expect((await h.t.db.customerDashboardUser.findUniqueOrThrow({ where: { id: a.user.id } })).passwordHash).not.toBe(weak);
    expect((await call('/info', between)).status).toBe(200);
    await resetPassword(a.email, 'second new password', 2);
    expect((await call('/info', between)).status).toBe(401);
    expect((await call('/info', await signIn(h, a.email, 'second new password'))).status).toBe(200);
  });
});

describe('refresh is bounded by the session lifetime', () => {
  it('keeps the sign-in time in every refreshed token and refuses refresh once the sign-in is older than DASHBOARD_SESSION_LIFETIME', async () => {
    const a = await makeCustomer(h);
    const config = loadConfig({ JWT_SECRET, LOG_LEVEL: 'silent', DATABASE_URL: h.t.url, DASHBOARD_SESSION_LIFETIME: '10m' });
    expect(config.sessionLifetimeSeconds).toBe(600);
    const app = createApp({ config, db: h.t.db, mailer: h.mailer, logger: createLogger('short-sessions', 'silent') }).app;

    const signedIn = (await request(app).post(`${BASE}/auth/signin`).send({ email: a.email, password: a.password })).body.data.token as string;
    const authTime = claimsOf(signedIn).auth_time;
    expect(authTime).toBe(claimsOf(signedIn).iat);

    const start = Date.now();
    setClock(start + 5 * 60_000);
    const second = await refresh(signedIn, app);
    setClock(start + 9 * 60_000);
    const third = await refresh(second, app);
    expect(claimsOf(third).auth_time).toBe(authTime);
    expect(claimsOf(third).iat).toBeGreaterThan(claimsOf(signedIn).iat);

    // 10 minutes after the sign-in: the token itself still lives (JWT_EXPIRES_IN 1h), but it no
    // longer refreshes, and the refusal does not use it up.
    setClock(start + 10 * 60_000 + 1000);
    expect((await call('/info', third, undefined, app)).status).toBe(200);
    const refused = await call('/auth/refresh', third, undefined, app);
    expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect((await call('/info', third, undefined, app)).status).toBe(200);

    // A new sign-in starts a new session.
    const again = (await request(app).post(`${BASE}/auth/signin`).send({ email: a.email, password: a.password })).body.data.token as string;
    expect((await call('/auth/refresh', again, undefined, app)).status).toBe(200);
  });

  it('defaults to 7 days, and refuses to refresh a token without a sign-in time (issued before the claim existed)', async () => {
    const a = await makeCustomer(h);
    expect(loadConfig({ JWT_SECRET }).sessionLifetimeSeconds).toBe(7 * 86_400);
    expect(() => loadConfig({ JWT_SECRET, DASHBOARD_SESSION_LIFETIME: 'forever' })).toThrow('DASHBOARD_SESSION_LIFETIME');
    const now = Math.floor(Date.now() / 1000);
    const customer = (authTime?: number) =>
      h.jwt.sign('customer', a.user.id, { email: a.email, customer_id: a.customer.id, ...(authTime === undefined ? {} : { auth_time: authTime }) }).token;

    expect((await call('/auth/refresh', customer(now - 7 * 86_400 + 60))).status).toBe(200);
    expect((await call('/auth/refresh', customer(now - 7 * 86_400 - 1))).status).toBe(401);
    const legacy = customer();
    expect((await call('/auth/refresh', legacy)).status).toBe(401);
    // Such a token still works until it expires or the account's credentials change.
    expect((await call('/info', legacy)).status).toBe(200);
  });
});
