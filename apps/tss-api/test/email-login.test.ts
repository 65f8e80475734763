import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { startHarness, type Harness } from './support/harness.js';
import { post } from './support/wallet-client.js';

const REQUEST = '/tss/v1/user/email/request_code';
const VERIFY = '/tss/v1/user/email/verify_code';
let n = 0;
const freshEmail = () => `mail-${Date.now()}-${++n}@example.com`;

describe('email one-time-code login', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ EMAIL_CODE_RATE_LIMIT_PER_EMAIL: '3' });
  });
  afterAll(() => h.stop());

  async function codeFor(email: string, nth = 1): Promise<string> {
    const res = await post(h.baseUrl, REQUEST, { email });
    expect(res.status).toBe(200);
    const mail = await h.mailer.devServer!.waitFor(email, nth);
    return /\b(\d{6})\b/.exec(mail.text)![1]!;
  }

  it('mails a code over SMTP, stores only its keyed hash, and trades it once for an ID token verifiable with the published JWKS', async () => {
    const email = freshEmail();
    const code = await codeFor(email);
    const row = await h.t.db.emailVerification.findFirstOrThrow({ where: { email } });
    expect(row).toMatchObject({ purpose: 'USER_LOGIN', attempts: 0, consumedAt: null });
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.codeHash).not.toContain(code);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeCloseTo(5 * 60_000, -3);

    const res = await post<{ id_token: string }>(h.baseUrl, VERIFY, { email: email.toUpperCase(), code });
    expect(res.status).toBe(200);
    const idToken = res.body.data!.id_token;
    expect(decodeProtectedHeader(idToken).alg).toBe('ES256');

    // The published documents, over HTTP, as key share nodes will fetch them.
    const discovery = (await (await fetch(`${h.baseUrl}/tss/v1/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string };
    expect(discovery.issuer).toBe('http://127.0.0.1:4200/tss/v1');
    expect(discovery.jwks_uri).toBe('http://127.0.0.1:4200/tss/v1/.well-known/jwks.json');
    const jwks = createRemoteJWKSet(new URL(`${h.baseUrl}/tss/v1/.well-known/jwks.json`));
    const { payload } = await jwtVerify(idToken, jwks, { issuer: discovery.issuer, audience: 'svc-tss-wallet' });
    expect(payload).toMatchObject({ sub: email, email, email_verified: true });
    const published = (await (await fetch(`${h.baseUrl}/tss/v1/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    expect(published.keys[0]).not.toHaveProperty('d');
    await expect(jwtVerify(idToken, createLocalJWKSet(published as never))).resolves.toBeDefined();

    const again = await post(h.baseUrl, VERIFY, { email, code });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_CODE');
  });

  it('concurrent verifications of one code: exactly one ID token', async () => {
    const email = freshEmail();
    const code = await codeFor(email);
    const results = await Promise.all(Array.from({ length: 10 }, () => post(h.baseUrl, VERIFY, { email, code })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('limits attempts: after 5 wrong codes even the right one is refused', async () => {
    const email = freshEmail();
    const code = await codeFor(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await post(h.baseUrl, VERIFY, { email, code: wrong });
      expect(res.body).toEqual({ success: false, code: 'INVALID_CODE', msg: 'Invalid code' });
    }
    const res = await post(h.baseUrl, VERIFY, { email, code });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('an expired code -> CODE_EXPIRED; a newer code replaces the older one', async () => {
    const email = freshEmail();
    const first = await codeFor(email, 1);
    await h.t.db.emailVerification.updateMany({ where: { email }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await post(h.baseUrl, VERIFY, { email, code: first })).body.code).toBe('CODE_EXPIRED');
    const second = await codeFor(email, 2);
    if (second !== first) expect((await post(h.baseUrl, VERIFY, { email, code: first })).body.code).toBe('INVALID_CODE');
    expect((await post(h.baseUrl, VERIFY, { email, code: second })).status).toBe(200);
  });

  it('validates input and rate-limits code requests per address', async () => {
    expect((await post(h.baseUrl, REQUEST, {})).body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'email is required' });
    expect((await post(h.baseUrl, REQUEST, { email: 'nope' })).body.msg).toBe('email must be a valid email address');
    expect((await post(h.baseUrl, VERIFY, { email: 'a@example.com', code: '12ab56' })).body.msg).toBe('code must be 6 digits');
    const email = freshEmail();
    for (let i = 0; i < 3; i++) expect((await post(h.baseUrl, REQUEST, { email })).status).toBe(200);
    const limited = await post(h.baseUrl, REQUEST, { email });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
  });
});
