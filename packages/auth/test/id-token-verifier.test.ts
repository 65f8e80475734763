import { IdTokenError, createIdTokenVerifier, type IdTokenVerifier } from '../src/index.js';
import {
  startOidcIssuer,
  startSocialUserInfoServer,
  telegramLoginToken,
  type LocalOidcIssuer,
  type SocialUserInfoServer,
} from '../src/testing/index.js';

const BOT_TOKEN = '123456:telegram-test-bot-token';

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof IdTokenError) return error.reason;
    throw error;
  }
  throw new Error('token was accepted');
}

describe('createIdTokenVerifier', () => {
  let google: LocalOidcIssuer;
  let apple: LocalOidcIssuer;
  let other: LocalOidcIssuer;
  let social: SocialUserInfoServer;
  let verifier: IdTokenVerifier;

  beforeAll(async () => {
    [google, apple, other, social] = await Promise.all([
      startOidcIssuer({ alg: 'RS256', audience: 'google-client' }),
      startOidcIssuer({ alg: 'ES256', audience: 'apple-client' }),
      startOidcIssuer({ audience: 'other-client' }),
      startSocialUserInfoServer(),
    ]);
    verifier = createIdTokenVerifier({
      google: { issuer: google.issuer, audience: 'google-client', jwksUri: google.jwksUri },
      apple: { issuer: apple.issuer, audience: 'apple-client', jwksUri: apple.jwksUri },
      oidc: [{ issuer: other.issuer, audience: 'other-client', jwksUri: other.jwksUri }],
      // X login exists only with the risk accepted (X cannot say which app a token is for).
      x: { baseUrl: social.baseUrl, acceptForeignAppTokens: true },
      discord: { baseUrl: social.baseUrl, clientIds: [social.discordClientId, '1160000000000000002'] },
      telegram: { botToken: BOT_TOKEN, maxAgeSeconds: 3600 },
    });
  });
  afterAll(async () => {
    await Promise.all([google.close(), apple.close(), other.close(), social.close()]);
  });

  it('accepts a Google ID token checked against its JWKS over HTTP, and caches the JWKS', async () => {
    const token = await google.issue({ sub: 'g-1', email: 'Alice@Example.com' });
    const identity = await verifier.verifyIdToken(token);
    expect(identity).toMatchObject({ authType: 'GOOGLE', subject: 'g-1', email: 'alice@example.com' });
    expect(identity.expiresAt.getTime()).toBeGreaterThan(Date.now());
    for (let i = 0; i < 5; i++) await verifier.verifyIdToken(await google.issue());
    expect(google.jwksRequests).toBe(1);
  });

  it('accepts an Apple ES256 token whose email_verified is the string "true"', async () => {
    const token = await apple.issue({ sub: 'a-1', email: 'bob@privaterelay.appleid.com', email_verified: 'true' });
    await expect(verifier.verifyIdToken(token)).resolves.toMatchObject({ authType: 'APPLE', subject: 'a-1' });
  });

  it('prefixes the subject of another OIDC issuer with the issuer', async () => {
    const identity = await verifier.verifyIdToken(await other.issue({ sub: 's-9' }));
    expect(identity).toMatchObject({ authType: 'OIDC', subject: `${other.issuer}|s-9` });
  });

  it.each([
    ['expired', () => google.issue({}, { expiresIn: -120 }), 'expired'],
    ['wrong audience', () => google.issue({}, { audience: 'someone-else' }), 'invalid_signature_or_claims'],
    ['unknown issuer', () => google.issue({}, { issuer: 'https://evil.example' }), 'unknown_issuer'],
    ['issuer of another provider (google token claiming apple)', () => google.issue({}, { issuer: apple.issuer, audience: 'apple-client' }), 'invalid_signature_or_claims'],
    ['signed by a key outside the JWKS', () => google.issue({}, { foreignKey: true }), 'invalid_signature_or_claims'],
    ['alg none', async () => google.unsigned(), 'invalid_signature_or_claims'],
    ['HS256 keyed with the RSA public key', () => google.hmacWithPublicKey(), 'invalid_signature_or_claims'],
    ['email not verified', () => google.issue({ email_verified: false }), 'email_not_verified'],
    ['no email', () => google.issue({ email: undefined }), 'email_not_verified'],
    ['not a token at all', async () => 'hello', 'malformed'],
    ['unknown prefix', async () => 'github:abc', 'malformed'],
  ])('refuses a JWT: %s', async (_name, make, reason) => {
    expect(await refusal(verifier.verifyIdToken(await make()))).toBe(reason);
  });

  it('checks X access tokens at the user-info endpoint', async () => {
    social.addXUser('x-live-token', { id: '4242', confirmed_email: 'xer@example.com' });
    await expect(verifier.verifyIdToken('x:x-live-token')).resolves.toMatchObject({ authType: 'X', subject: '4242', email: 'xer@example.com' });
    social.revoke('x-live-token');
    expect(await refusal(verifier.verifyIdToken('x:x-live-token'))).toBe('provider_rejected');
  });

  it('checks Discord access tokens and keeps only a verified email', async () => {
    social.addDiscordUser('d-token-1', { id: '77', email: 'd@example.com', verified: true });
    social.addDiscordUser('d-token-2', { id: '78', email: 'e@example.com', verified: false });
    await expect(verifier.verifyIdToken('discord:d-token-1')).resolves.toMatchObject({ subject: '77', email: 'd@example.com' });
    await expect(verifier.verifyIdToken('discord:d-token-2')).resolves.toMatchObject({ subject: '78', email: null });
    expect(await refusal(verifier.verifyIdToken('discord:unknown-token'))).toBe('provider_rejected');
  });

  describe('Discord: only tokens issued to our application (GET /oauth2/@me)', () => {
    it('refuses a live token of the same person issued to another application, without asking for the profile', async () => {
      // The operator of another Discord app the victim authorised replays the token it holds.
      social.addDiscordUser('d-ours-token', { id: '501', email: 'v@example.com', verified: true });
      social.addDiscordUser('d-foreign', { id: '501', email: 'v@example.com', verified: true }, { applicationId: '999000000000000001' });
      await expect(verifier.verifyIdToken('discord:d-ours-token')).resolves.toMatchObject({ authType: 'DISCORD', subject: '501', email: 'v@example.com' });
      const profileCalls = social.requestsTo('/users/@me');
      expect(await refusal(verifier.verifyIdToken('discord:d-foreign'))).toBe('foreign_application');
      expect(social.requestsTo('/users/@me')).toBe(profileCalls);
    });

    it('accepts every configured client id (DISCORD_CLIENT_ID may list several)', async () => {
      social.addDiscordUser('d-second-app', { id: '502' }, { applicationId: '1160000000000000002' });
      await expect(verifier.verifyIdToken('discord:d-second-app')).resolves.toMatchObject({ subject: '502', email: null });
    });

    it('asks one request without the email scope, two with it', async () => {
      social.addDiscordUser('d-identify-only', { id: '503', email: 'hidden@example.com', verified: true }, { scopes: ['identify'] });
      const before = social.requests;
      await expect(verifier.verifyIdToken('discord:d-identify-only')).resolves.toMatchObject({ subject: '503', email: null });
      expect(social.requests - before).toBe(1);
      social.addDiscordUser('d-with-email', { id: '504', email: 'Shown@Example.com', verified: true });
      const then = social.requests;
      await expect(verifier.verifyIdToken('discord:d-with-email')).resolves.toMatchObject({ subject: '504', email: 'shown@example.com' });
      expect(social.requests - then).toBe(2);
    });

    it('refuses a token without the identify scope (no user), and never accepts past Discord\'s expiry', async () => {
      social.addDiscordUser('d-no-identify', { id: '505' }, { scopes: ['guilds'] });
      expect(await refusal(verifier.verifyIdToken('discord:d-no-identify'))).toBe('provider_rejected');
      const expires = new Date(Date.now() + 60_000);
      social.addDiscordUser('d-short-lived', { id: '506' }, { expires });
      const identity = await verifier.verifyIdToken('discord:d-short-lived');
      expect(identity.expiresAt.getTime()).toBeLessThanOrEqual(expires.getTime());
    });

    it('cannot be configured without a client id', () => {
      expect(() => createIdTokenVerifier({ discord: { baseUrl: social.baseUrl, clientIds: [] } })).toThrow(/client id/);
    });
  });

  it('X: cannot be configured without accepting tokens of other apps, which it then accepts', async () => {
    // X's API names the user of a token, never the app it was issued to: there is nothing to check.
    expect(() => createIdTokenVerifier({ x: { baseUrl: social.baseUrl } as never })).toThrow(/acceptForeignAppTokens/);
    expect(() => createIdTokenVerifier({ x: { baseUrl: social.baseUrl, acceptForeignAppTokens: false } as never })).toThrow(/acceptForeignAppTokens/);
    // The accepted risk: a token another X app holds for this person signs in as them.
    social.addXUser('x-token-of-another-app', { id: '4243' });
    await expect(verifier.verifyIdToken('x:x-token-of-another-app')).resolves.toMatchObject({ authType: 'X', subject: '4243', email: null });
  });

  it('checks Telegram login data by its HMAC and age', async () => {
    const token = telegramLoginToken(BOT_TOKEN, { id: 99001, username: 'tg' });
    await expect(verifier.verifyIdToken(token)).resolves.toMatchObject({ authType: 'TELEGRAM', subject: '99001', email: null });
    expect(await refusal(verifier.verifyIdToken(telegramLoginToken('999:other-bot', { id: 99001 })))).toBe('invalid_signature_or_claims');
    const old = telegramLoginToken(BOT_TOKEN, { id: 99001 }, Math.floor(Date.now() / 1000) - 7200);
    expect(await refusal(verifier.verifyIdToken(old))).toBe('expired');
    // Changing a field after signing breaks the hash.
    const data = JSON.parse(Buffer.from(token.slice('telegram:'.length), 'base64url').toString()) as Record<string, unknown>;
    const tampered = `telegram:${Buffer.from(JSON.stringify({ ...data, id: 1 })).toString('base64url')}`;
    expect(await refusal(verifier.verifyIdToken(tampered))).toBe('invalid_signature_or_claims');
  });

  it('refuses tokens of unconfigured providers', async () => {
    const onlyGoogle = createIdTokenVerifier({ google: { issuer: google.issuer, audience: 'google-client', jwksUri: google.jwksUri } });
    expect(onlyGoogle.enabled).toEqual(['GOOGLE']);
    expect(await refusal(onlyGoogle.verifyIdToken('discord:d-token-1'))).toBe('provider_not_enabled');
    expect(await refusal(onlyGoogle.verifyIdToken(telegramLoginToken(BOT_TOKEN, { id: 1 })))).toBe('provider_not_enabled');
    expect(await refusal(onlyGoogle.verifyIdToken(await apple.issue()))).toBe('unknown_issuer');
  });

  it('refuses to be configured with a symmetric algorithm', () => {
    expect(() => createIdTokenVerifier({ google: { issuer: 'i', audience: 'a', jwksUri: 'http://x', algorithms: ['HS256'] } })).toThrow(/asymmetric/);
  });
});
