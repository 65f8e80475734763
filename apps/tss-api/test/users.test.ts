import { ServiceJwt, issueApiKey } from '@svc/auth';
import { createDb } from '@svc/db';
import { startFaultProxy } from '@svc/db/testing';
import { createLogger } from '@svc/http';
import { createApp } from '../src/app.js';
import { startHarness, JWT_SECRET, type Harness } from './support/harness.js';
import { post } from './support/wallet-client.js';
import { createWalletUser, type WalletUser } from './support/wallet-user.js';
import { listen } from '@svc/http';

const SIGNIN = '/tss/v1/user/signin';
const SILENT = '/tss/v1/user/signin_silently';
const UNAUTHORIZED = { success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' };

describe('user routes: sign-in, silent sign-in, check (spec 4.1, 5, 7)', () => {
  let h: Harness;
  let alice: WalletUser;
  beforeAll(async () => {
    // "1H" as spec §5/§8 write it.
    h = await startHarness({ SIGNIN_SILENTLY_WINDOW: '1h', JWT_EXPIRES_IN: '1H' });
    alice = await createWalletUser(h);
  });
  afterAll(() => h.stop());

  const signin = (token: string | undefined, apiKey = h.apiKey) =>
    post(h.baseUrl, SIGNIN, undefined, { ...(token ? { authorization: `Bearer ${token}` } : {}), 'x-api-key': apiKey });

  it('signs in with the ID token that created the wallet', async () => {
    const res = await signin(alice.idToken);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ user: { wallet_id: alice.walletId, user_id: alice.userId } });
    const claims = JSON.parse(Buffer.from((res.body.data as { token: string }).token.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('a missing or bad token is 401 UNAUTHORIZED before the API key is looked at, on every token route (spec 4.1 rule 1, 5 rule 4)', async () => {
    const routes = [
      [SIGNIN, undefined],
      ['/tss/v1/keygen', {}],
      ['/tss/v1/user/reshare', {}],
      [SILENT, undefined],
      ['/tss/v1/triples', {}],
      ['/tss/v1/presign', {}],
      ['/tss/v1/sign', {}],
      ['/tss/v1/sign/step1', {}],
      ['/tss/v1/sign/step2', {}],
      ['/tss/v1/session/abort', {}],
      ['/tss/v2/sign_ed25519/round1', {}],
      ['/tss/v2/sign_ed25519/round2', {}],
    ] as const;
    for (const [path, body] of routes) {
      const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer not-a-token' }, { authorization: 'Bearer not-a-token', 'x-api-key': 'svc_wrong' }];
      for (const headers of attempts) {
        const res = await post(h.baseUrl, path, body, headers);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 401, body: UNAUTHORIZED });
      }
    }
    // A good token with no key: the key is still required.
    expect((await post(h.baseUrl, SILENT, undefined, { authorization: `Bearer ${alice.token}` })).body.code).toBe('INVALID_API_KEY');
  });

  it.each([
    ['missing', async () => undefined],
    ['garbage', async () => 'not-a-token'],
    ['expired', () => h.google.issue({}, { expiresIn: -300 })],
    ['wrong audience', () => h.google.issue({}, { audience: 'another-app' })],
    ['wrong issuer', () => h.google.issue({}, { issuer: 'https://accounts.evil.example' })],
    ['alg=none', async () => h.google.unsigned()],
    ['HS256 signed with the RS256 public key', () => h.google.hmacWithPublicKey()],
    ['signed by an unknown key', () => h.google.issue({}, { foreignKey: true })],
    ['unverified email', () => h.google.issue({ email_verified: false })],
    ['a service JWT instead of an ID token', async () => alice.token],
  ])('signin with a %s token -> 401 UNAUTHORIZED', async (_name, make) => {
    const res = await signin(await make());
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('an unconfigured provider -> 401', async () => {
    const noDiscord = await h.variant({ DISCORD_LOGIN_ENABLED: 'false', TELEGRAM_BOT_TOKEN: '' });
    try {
      h.social.addDiscordUser('dtok-unconfigured', { id: '31337', email: 'u@example.com', verified: true });
      const res = await post(noDiscord.baseUrl, SIGNIN, undefined, { authorization: 'Bearer discord:dtok-unconfigured', 'x-api-key': h.apiKey });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    } finally {
      await noDiscord.close();
    }
  });

  it('signin for a user without an account -> 404 USER_NOT_FOUND; without a wallet -> 404 WALLET_NOT_FOUND', async () => {
    const stranger = await signin(await h.google.issue({ sub: 'nobody-here' }));
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ success: false, code: 'USER_NOT_FOUND', msg: 'User not found' });
    await h.t.db.user.create({ data: { email: 'walletless@example.com', authType: 'GOOGLE', providerSubject: 'walletless' } });
    const walletless = await signin(await h.google.issue({ sub: 'walletless', email: 'walletless@example.com' }));
    expect(walletless.status).toBe(404);
    expect(walletless.body).toEqual({ success: false, code: 'WALLET_NOT_FOUND', msg: 'Wallet not found' });
  });

  it('API key: missing, unknown or revoked -> 401 INVALID_API_KEY', async () => {
    const idToken = alice.idToken;
    expect((await post(h.baseUrl, SIGNIN, undefined, { authorization: `Bearer ${idToken}` })).body.code).toBe('INVALID_API_KEY');
    expect((await signin(idToken, issueApiKey().key)).body.code).toBe('INVALID_API_KEY');
    const revoked = issueApiKey();
    await h.t.db.apiKey.create({ data: { customerId: h.customerId, keyPrefix: revoked.displayPrefix, keyHash: revoked.hash, label: 'old', revokedAt: new Date() } });
    const res = await signin(idToken, revoked.key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_API_KEY');
  });

  it('admin and customer JWTs are refused on user routes', async () => {
    for (const kind of ['admin', 'customer'] as const) {
      const { token } = h.api.jwt.sign(kind, alice.userId);
      const headers = { authorization: `Bearer ${token}`, 'x-api-key': h.apiKey };
      const round1 = await post(h.baseUrl, '/tss/v2/sign_ed25519/round1', { msg: 'aa' }, headers);
      expect(round1.status).toBe(403);
      expect(round1.body.code).toBe('FORBIDDEN');
      expect((await post(h.baseUrl, '/tss/v1/session/abort', { session_id: '00000000-0000-4000-8000-000000000000' }, headers)).status).toBe(403);
      expect((await post(h.baseUrl, SILENT, undefined, headers)).status).toBe(403);
      expect((await signin(token)).status).toBe(401);
    }
  });

  describe('signin_silently', () => {
    // A token issued with a negative lifetime is one that expired that long ago.
    const expiredToken = (sub: string, expiredSecondsAgo: number) =>
      new ServiceJwt({ secret: JWT_SECRET, expiresIn: -expiredSecondsAgo }).sign('user', sub, { email: 'x@example.com' }).token;

    it('a valid token gets a fresh one with the sign-in result', async () => {
      const res = await post<{ token: string; user: { wallet_id: string } }>(h.baseUrl, SILENT, undefined, alice.headers);
      expect(res.status).toBe(200);
      expect(res.body.data!.token).not.toBe(alice.token);
      expect(res.body.data!.user.wallet_id).toBe(alice.walletId);
    });

    it('an expired token is refreshed within the window only', async () => {
      const recent = await post(h.baseUrl, SILENT, undefined, { authorization: `Bearer ${expiredToken(alice.userId, 600)}`, 'x-api-key': h.apiKey });
      expect(recent.status).toBe(200);
      const refreshed = (recent.body.data as { token: string }).token;
      expect(h.api.jwt.verify('user', refreshed)).toMatchObject({ ok: true, expired: false });
      const old = await post(h.baseUrl, SILENT, undefined, { authorization: `Bearer ${expiredToken(alice.userId, 3700)}`, 'x-api-key': h.apiKey });
      expect(old.status).toBe(401);
      expect(old.body).toEqual(UNAUTHORIZED);
      const forged = new ServiceJwt({ secret: 'another-secret-another-secret-another-secret', expiresIn: '1h' }).sign('user', alice.userId).token;
      expect((await post(h.baseUrl, SILENT, undefined, { authorization: `Bearer ${forged}`, 'x-api-key': h.apiKey })).status).toBe(401);
      expect((await post(h.baseUrl, SILENT, undefined, { 'x-api-key': h.apiKey })).status).toBe(401);
    });

    it('only while the user and a wallet still exist', async () => {
      const bob = await createWalletUser(h);
      await h.t.db.wallet.deleteMany({ where: { userId: bob.userId } });
      const noWallet = await post(h.baseUrl, SILENT, undefined, bob.headers);
      expect(noWallet.status).toBe(404);
      expect(noWallet.body.code).toBe('WALLET_NOT_FOUND');
      await h.t.db.user.delete({ where: { id: bob.userId } });
      const noUser = await post(h.baseUrl, SILENT, undefined, bob.headers);
      expect(noUser.status).toBe(404);
      expect(noUser.body.code).toBe('USER_NOT_FOUND');
    });
  });

  describe('user/check', () => {
    it('without an email -> 400 INVALID_REQUEST "email is required"', async () => {
      for (const body of [{}, { email: '' }, { email: 42 }]) {
        const res = await post(h.baseUrl, '/tss/v1/user/check', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'email is required' });
      }
    });

    it('an unknown email: exists false, every node NOT_REGISTERED, no reshare', async () => {
      const res = await post(h.baseUrl, '/tss/v1/user/check', { email: 'unknown@example.com' });
      expect(res.body.data).toEqual({
        exists: false,
        keyshare_node_meta: {
          threshold: 2,
          nodes: [1, 2, 3].map((i) => ({ name: `node-${i}`, endpoint: `http://127.0.0.1:${i}`, wallet_status: 'NOT_REGISTERED' })),
        },
        needs_reshare: false,
        active_nodes_below_threshold: false,
      });
    });

    it('a known email: exists true; user/reshare input rows of spec 4.1 rule 6', async () => {
      const carol = await createWalletUser(h);
      const user = await h.t.db.user.findUniqueOrThrow({ where: { id: carol.userId } });
      const res = await post<Record<string, unknown>>(h.baseUrl, '/tss/v1/user/check', { email: user.email.toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ exists: true, needs_reshare: false, keyshare_node_meta: { threshold: 2 } });

      const idHeaders = { authorization: `Bearer ${carol.idToken}`, 'x-api-key': h.apiKey };
      const publicKey = Buffer.from(carol.key.keygen.publicKey).toString('hex');
      const reshare = (body: unknown) => post(h.baseUrl, '/tss/v1/user/reshare', body, idHeaders);
      expect((await reshare({ public_key: 'xyz', reshared_key_shares: [] })).body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'Invalid public key' });
      expect((await reshare({ public_key: publicKey })).body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'reshared_key_shares is required' });
      const other = await reshare({ public_key: 'ab'.repeat(32), reshared_key_shares: [{ name: 'node-2', endpoint: 'http://127.0.0.1:2' }] });
      expect(other.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'Invalid public key' });
    });

    it('failing to load the key share nodes -> 500 UNKNOWN_ERROR "Failed to get user" (spec 4.1 rule 5)', async () => {
      const { email: aliceEmail } = await h.t.db.user.findUniqueOrThrow({ where: { id: alice.userId } });
      await h.t.db.$executeRawUnsafe('ALTER TABLE key_share_nodes RENAME TO key_share_nodes_away');
      try {
        for (const email of [aliceEmail!, 'nobody@example.com']) {
          const check = await post(h.baseUrl, '/tss/v1/user/check', { email });
          expect(check.status).toBe(500);
          expect(check.body).toEqual({ success: false, code: 'UNKNOWN_ERROR', msg: 'Failed to get user' });
        }
      } finally {
        await h.t.db.$executeRawUnsafe('ALTER TABLE key_share_nodes_away RENAME TO key_share_nodes');
      }
      expect((await post(h.baseUrl, '/tss/v1/user/check', { email: aliceEmail })).status).toBe(200);
    });

    /** tss-api on another database client, for as long as `body` runs. */
    async function withDb(db: ReturnType<typeof createDb>, body: (base: string) => Promise<void>) {
      const api = createApp({ config: h.config, db, mailer: h.mailer, emailIdTokens: h.emailIdTokens, logger: createLogger('t', 'silent') });
      const server = await listen(api.app, 0, '127.0.0.1');
      try {
        await body(`http://127.0.0.1:${server.port}`);
      } finally {
        await server.close(0);
        await db.$disconnect();
      }
    }
    const OUTAGE = { success: false, code: 'DATABASE_UNAVAILABLE', msg: 'The database is unavailable; retry shortly' };

    it('a database that stalls or is gone -> 503 DATABASE_UNAVAILABLE within the configured timeouts, then recovers', async () => {
      const proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(h.t.url).port) });
      await withDb(createDb(proxy.url(h.t.url), { statementTimeoutMs: 300, connectTimeoutMs: 300 }), async (base) => {
        expect((await post(base, '/tss/v1/user/check', { email: 'a@example.com' })).status).toBe(200);
        proxy.stall();
        const started = Date.now();
        const check = await post(base, '/tss/v1/user/check', { email: 'a@example.com' });
        expect(check.status).toBe(503);
        expect(check.body).toEqual(OUTAGE);
        const res = await post(base, SIGNIN, undefined, { authorization: `Bearer ${alice.idToken}`, 'x-api-key': h.apiKey });
        expect(res.status).toBe(503);
        expect(res.body).toEqual(OUTAGE);
        expect(Date.now() - started).toBeLessThan(8000);
        proxy.resume();
        expect((await post(base, '/tss/v1/user/check', { email: 'a@example.com' })).status).toBe(200);
        await proxy.stop();
        expect((await post(base, '/tss/v1/user/check', { email: 'a@example.com' })).body).toEqual(OUTAGE);
      });
    }, 30_000);

    it('failing to load the user for another reason -> 500 UNKNOWN_ERROR "Failed to get user"', async () => {
      // A database without the schema: an error, but not an outage to wait out.
      await withDb(createDb(await h.t.createDatabase('no_schema')), async (base) => {
        const check = await post(base, '/tss/v1/user/check', { email: 'a@example.com' });
        expect(check.status).toBe(500);
        expect(check.body).toEqual({ success: false, code: 'UNKNOWN_ERROR', msg: 'Failed to get user' });
      });
    });
  });
});
