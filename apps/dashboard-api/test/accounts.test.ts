import { randomUUID } from 'node:crypto';
import { dashboardUserRepo } from '@svc/accounts';
import request from 'supertest';
import { authRepo } from '../src/modules/auth/repo.js';
import { makeCustomer, mailedCode, signIn, startHarness, uniqueEmail, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const AUTH = '/customer_dashboard/v1/customer/auth';
const post = (path: string, body: object) => request(h.app).post(`${AUTH}${path}`).send(body);

describe('signup, email verification, signin', () => {
  it('runs end to end: signup mails a code, unverified cannot sign in, the code verifies once', async () => {
    const { customer } = await makeCustomer(h);
    const email = uniqueEmail('new');
    const signup = await post('/signup', { email: email.toUpperCase(), password: 'new user password', customer_id: customer.id });
    expect(signup.status).toBe(201);
    expect(signup.body.data).toEqual({ email, verification_required: true, code_expires_at: expect.any(String) });
    const ttl = new Date(signup.body.data.code_expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(4.5 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);

    const mail = await h.inbox.waitFor(email);
    expect(mail.from).toBe('dashboard@svc.test');
    expect(mail.subject).toBe('Verify your email address');
    expect(mail.text).toContain('within 5 minutes');
    const code = await mailedCode(h, email);
    const stored = await h.t.db.emailVerification.findFirstOrThrow({ where: { email, purpose: 'DASHBOARD_SIGNUP' } });
    expect(stored.codeHash).not.toContain(code);

    const early = await post('/signin', { email, password: 'new user password' });
    expect(early.status).toBe(403);
    expect(early.body).toEqual({ success: false, code: 'EMAIL_NOT_VERIFIED', msg: 'Email is not verified' });
    // Without the password, nobody learns the account is unverified.
    expect((await post('/signin', { email, password: 'wrong password!' })).body.code).toBe('INVALID_CREDENTIALS');

    const wrong = code === '000000' ? '111111' : '000000';
    expect((await post('/verify_email', { email, code: wrong })).body).toEqual({ success: false, code: 'INVALID_CODE', msg: 'Invalid verification code' });
    const verified = await post('/verify_email', { email, code });
    expect(verified.body).toEqual({ success: true, data: { email, email_verified: true } });
    expect((await post('/verify_email', { email, code })).body.code).toBe('INVALID_CODE');

    const signin = await post('/signin', { email, password: 'new user password' });
    expect(signin.status).toBe(200);
    expect(signin.body.data.user).toMatchObject({ email, customer_id: customer.id, email_verified: true, last_login_at: expect.any(String) });
    expect(signin.body.data.customer.customer_id).toBe(customer.id);
    const claims = h.jwt.verify('customer', signin.body.data.token);
    expect(claims.ok && claims.claims.customer_id).toBe(customer.id);
  });

  it('refuses an expired code, and after 5 wrong guesses even the right one', async () => {
    const { customer } = await makeCustomer(h);
    const email = uniqueEmail('exp');
    await post('/signup', { email, password: 'new user password', customer_id: customer.id });
    const code = await mailedCode(h, email);
    await h.t.db.emailVerification.updateMany({ where: { email }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await post('/verify_email', { email, code })).body).toEqual({ success: false, code: 'CODE_EXPIRED', msg: 'Verification code has expired' });

    // A new code (resend) supersedes the old one.
    const resend = await post('/resend_verification', { email });
    expect(resend.body.data).toEqual({ message: 'If an account needs it, a code was sent to this address' });
    const fresh = await mailedCode(h, email, 2);
    const wrong = fresh === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await post('/verify_email', { email, code: wrong })).body.code).toBe('INVALID_CODE');
    const locked = await post('/verify_email', { email, code: fresh });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
    await post('/resend_verification', { email });
    expect((await post('/verify_email', { email, code: await mailedCode(h, email, 3) })).status).toBe(200);
  });

  it('answers resend and reset requests for unknown or verified addresses the same, sending nothing', async () => {
    const { email } = await makeCustomer(h);
    const ghost = uniqueEmail('ghost');
    const a = await post('/resend_verification', { email: ghost });
    const b = await post('/resend_verification', { email });
    const c = await post('/request_password_reset', { email: ghost });
    expect(a.body).toEqual(b.body);
    expect(a.body).toEqual(c.body);
    await new Promise((r) => setTimeout(r, 300));
    expect(h.inbox.inbox(ghost)).toHaveLength(0);
    expect(h.inbox.inbox(email)).toHaveLength(0);
  });

  it.each([
    [{ password: 'new user password', customer_id: '00000000-0000-4000-8000-000000000000' }, 400, 'email is required'],
    [{ email: 'x@example.com', password: 'short', customer_id: '00000000-0000-4000-8000-000000000000' }, 400, 'password must be 10 to 128 characters'],
    [{ email: 'x@example.com', password: 'new user password' }, 400, 'customer_id is required'],
    [{ email: 'x@example.com', password: 'new user password', customer_id: 'acme' }, 400, 'customer_id must be a UUID'],
    [{ email: 'x@example.com', password: 'new user password', customer_id: '00000000-0000-4000-8000-000000000000' }, 404, 'Customer not found'],
  ])('refuses signup %j', async (body, status, msg) => {
    const res = await post('/signup', body);
    expect([res.status, res.body.msg]).toEqual([status, msg]);
    expect(await h.t.db.customerDashboardUser.count({ where: { email: 'x@example.com' } })).toBe(0);
  });

  it('refuses a signup with an email already in use', async () => {
    const { customer, email } = await makeCustomer(h);
    const res = await post('/signup', { email, password: 'new user password', customer_id: customer.id });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_ALREADY_EXISTS');
  });

  it('refuses wrong credentials alike and validates the code format', async () => {
    const { email } = await makeCustomer(h);
    for (const body of [{ email, password: 'not the password' }, { email: uniqueEmail('nobody'), password: 'customer password 1' }]) {
      expect((await post('/signin', body)).body).toEqual({ success: false, code: 'INVALID_CREDENTIALS', msg: 'Invalid email or password' });
    }
    expect((await post('/verify_email', { email, code: '12ab56' })).body.msg).toBe('code must be 6 digits');
    expect((await post('/verify_email', { email })).body.msg).toBe('code is required');
  });

  it('rate-limits sign-in per IP and email', async () => {
    const email = uniqueEmail('limited');
    for (let i = 0; i < 10; i++) await request(h.app).post(`${AUTH}/signin`).set('x-forwarded-for', '10.7.7.7').send({ email, password: 'guess guess' });
    const res = await request(h.app).post(`${AUTH}/signin`).set('x-forwarded-for', '10.7.7.7').send({ email, password: 'guess guess' });
    expect(res.status).toBe(429);
  });
});

describe('password reset by email', () => {
  it('runs end to end: the mailed code sets a new password once', async () => {
    const { email, password } = await makeCustomer(h);
    expect((await post('/request_password_reset', { email })).status).toBe(200);
    const mail = await h.inbox.waitFor(email);
    expect(mail.subject).toBe('Reset your password');
    const code = await mailedCode(h, email);

    expect((await post('/reset_password', { email, code, new_password: 'short' })).body.msg).toBe('new_password must be 10 to 128 characters');
    const reset = await post('/reset_password', { email, code, new_password: 'a brand new password' });
    expect(reset.body).toEqual({ success: true, data: { message: 'Password changed' } });
    expect((await post('/signin', { email, password })).body.code).toBe('INVALID_CREDENTIALS');
    expect((await post('/signin', { email, password: 'a brand new password' })).status).toBe(200);
    expect((await post('/reset_password', { email, code, new_password: 'another new password' })).body.code).toBe('INVALID_CODE');
    // A signup code does not reset a password.
    expect((await post('/reset_password', { email: uniqueEmail('nobody'), code, new_password: 'another new password' })).body.code).toBe('INVALID_CODE');
  });

  it('lets exactly one of several concurrent resets with the same code through', async () => {
    const { email } = await makeCustomer(h);
    await post('/request_password_reset', { email });
    const code = await mailedCode(h, email);
    const passwords = ['password number 1', 'password number 2', 'password number 3', 'password number 4'];
    const results = await Promise.all(
      passwords.map((p) =>
        request(h.app).post(`${AUTH}/reset_password`).set('x-forwarded-for', `10.3.3.${p.slice(-1)}`).send({ email, code, new_password: p }),
      ),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.body.code === 'INVALID_CODE')).toHaveLength(3);
    const winner = passwords[results.findIndex((r) => r.status === 200)]!;
    expect(await signIn(h, email, winner)).toEqual(expect.any(String));
  });

  it('also verifies an unverified address', async () => {
    const { customer } = await makeCustomer(h);
    const email = uniqueEmail('unverified');
    await post('/signup', { email, password: 'first password 1', customer_id: customer.id });
    await post('/request_password_reset', { email });
    const code = await mailedCode(h, email, 2);
    expect((await post('/reset_password', { email, code, new_password: 'second password 2' })).status).toBe(200);
    expect((await post('/signin', { email, password: 'second password 2' })).status).toBe(200);
  });
});

describe('writes after a read, to an account deleted in between', () => {
  it('are no error: the login stamp and a password rehash touch 0 rows instead of throwing (no 500 mid-request)', async () => {
    const gone = randomUUID();
    await expect(authRepo(h.t.db).recordLogin(gone)).resolves.toBeUndefined();
    await expect(dashboardUserRepo(h.t.db).setPassword(gone, 'hash', 'previous hash')).resolves.toBeUndefined();
    expect(await h.t.db.customerDashboardUser.count({ where: { id: gone } })).toBe(0);
  });
});
