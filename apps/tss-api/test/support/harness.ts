import { issueApiKey } from '@svc/auth';
import { startOidcIssuer, startSocialUserInfoServer, type LocalOidcIssuer, type SocialUserInfoServer } from '@svc/auth/testing';
import { startTestDatabase, type TestDatabase } from '@svc/db/testing';
import { createLogger, listen, type RunningServer } from '@svc/http';
import { createMailer, type Mailer } from '@svc/mailer';
import { generateShareKey } from '@svc/share-cipher';
import { createApp, type TssApi } from '../../src/app.js';
import { loadConfig, type TssApiConfig } from '../../src/env.js';
import { createEmailIdTokenIssuer, generateEmailIdTokenKey, type EmailIdTokenIssuer } from '../../src/modules/email-login/id-token-issuer.js';

export const TELEGRAM_BOT_TOKEN = '7000001:test-bot-token-for-tss-api';
export const JWT_SECRET = 'test-jwt-secret-that-is-long-enough-0123456789';

export interface Harness {
  t: TestDatabase;
  config: TssApiConfig;
  api: TssApi;
  server: RunningServer;
  baseUrl: string;
  mailer: Mailer;
  google: LocalOidcIssuer;
  apple: LocalOidcIssuer;
  social: SocialUserInfoServer;
  emailIdTokens: EmailIdTokenIssuer;
  /** A live API key of a test customer. */
  apiKey: string;
  apiKeyId: string;
  customerId: string;
  /** Another app instance on the same database with other settings. */
  variant(env: Record<string, string>): Promise<{ baseUrl: string; close(): Promise<void> }>;
  stop(): Promise<void>;
}

/**
 * A real tss-api on loopback: real PostgreSQL (one per test file), the real in-process SMTP
 * server, local OIDC issuers (Google RS256, Apple ES256) serving JWKS over HTTP, and a local
 * X/Discord user-info server. Configuration goes through loadConfig like production.
 */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const [t, google, apple, social, mailer, privateJwk] = await Promise.all([
    startTestDatabase(),
    startOidcIssuer({ alg: 'RS256', audience: 'google-client-id' }),
    startOidcIssuer({ alg: 'ES256', audience: 'apple-client-id' }),
    startSocialUserInfoServer(),
    createMailer({ from: 'wallet@test.local' }),
    generateEmailIdTokenKey(),
  ]);
  const baseEnv: Record<string, string> = {
    LOG_LEVEL: 'silent',
    JWT_SECRET,
    SHARE_ENCRYPTION_KEYS: generateShareKey('k1'),
    PUBLIC_URL: 'http://127.0.0.1:4200',
    GOOGLE_CLIENT_ID: google.audience,
    GOOGLE_ISSUER: google.issuer,
    GOOGLE_JWKS_URI: google.jwksUri,
    APPLE_CLIENT_ID: apple.audience,
    APPLE_ISSUER: apple.issuer,
    APPLE_JWKS_URI: apple.jwksUri,
    X_LOGIN_ENABLED: 'true',
    X_API_BASE_URL: social.baseUrl,
    // X login starts only with this risk accepted (X cannot say which app a token is for;
    // docs/auth.md); the tests run X login, so they accept it.
    X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS: 'true',
    DISCORD_LOGIN_ENABLED: 'true',
    DISCORD_API_BASE_URL: social.baseUrl,
    // The stand-in issues Discord tokens to this application unless told another.
    DISCORD_CLIENT_ID: social.discordClientId,
    TELEGRAM_BOT_TOKEN,
    // Nodes that are down: nothing listens on ports 1-3, unlike 4201-4203 where a developer's
    // `pnpm start` (or another test) may run real nodes. Tests needing live nodes start their own.
    KEYSHARE_NODES: 'node-1=http://127.0.0.1:1,node-2=http://127.0.0.1:2,node-3=http://127.0.0.1:3',
    EMAIL_ID_TOKEN_PRIVATE_KEY: JSON.stringify(privateJwk),
    EMAIL_CODE_RATE_LIMIT_PER_IP: '1000',
    ...env,
  };
  const logger = createLogger('tss-api-test', 'silent');
  const build = async (overrides: Record<string, string>) => {
    const config = loadConfig({ ...baseEnv, ...overrides });
    const emailIdTokens = await createEmailIdTokenIssuer({
      issuer: `${config.publicUrl}/tss/v1`,
      audience: config.emailLogin.audience,
      ttlSeconds: config.emailLogin.idTokenTtlSeconds,
      ...(config.emailLogin.privateJwk ? { privateJwk: config.emailLogin.privateJwk } : {}),
    });
    const api = createApp({ config, db: t.db, mailer, emailIdTokens, logger });
    const server = await listen(api.app, 0, '127.0.0.1');
    // Client and server share this process's event loop: the client's protocol work (seconds on a
    // loaded machine) can block it past Node's 5 s keep-alive, and the server's idle timer then
    // closes the socket just as the client reuses it (ECONNRESET). Idle sockets are closed at stop.
    server.server.keepAliveTimeout = 120_000;
    return { config, api, server, emailIdTokens, baseUrl: `http://127.0.0.1:${server.port}` };
  };
  const main = await build({});
  await main.api.keyshare.seedNodes(main.config.keyshare.nodes);

  const issued = issueApiKey();
  const customer = await t.db.customer.create({ data: { label: 'Test wallet app', email: `app-${Date.now()}@example.com` } });
  const key = await t.db.apiKey.create({ data: { customerId: customer.id, keyPrefix: issued.displayPrefix, keyHash: issued.hash, label: 'test' } });

  const variants: RunningServer[] = [];
  return {
    t,
    ...main,
    mailer,
    google,
    apple,
    social,
    apiKey: issued.key,
    apiKeyId: key.id,
    customerId: customer.id,
    async variant(overrides) {
      const v = await build(overrides);
      variants.push(v.server);
      return { baseUrl: v.baseUrl, close: () => v.server.close(0) };
    },
    async stop() {
      await Promise.all([main.server.close(0), ...variants.map((s) => s.close(0))]);
      await Promise.all([google.close(), apple.close(), social.close(), mailer.close()]);
      await t.stop();
    },
  };
}
