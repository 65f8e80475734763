import type { IdTokenProvidersConfig, OidcProviderConfig } from '@svc/auth';
import { EnvReader } from '@svc/config';
import { readDatabaseConfig, type DatabaseConfig } from '@svc/db';
import type { ShareCipher } from '@svc/share-cipher';
import { readShareCipherConfig } from '@svc/share-cipher';

export interface RateLimitConfig {
  windowMs: number;
  /** Requests per client IP and window. */
  limit: number;
}

export interface KeyshareNodeConfig {
  port: number;
  host: string;
  logLevel: string;
  /** The node's name: its identity towards clients and the main API, and its Shamir x-coordinate. */
  nodeName: string;
  publicUrl: string;
  /** Own database; unset -> the embedded PostgreSQL, database keyshare_<name>. */
  /** DATABASE_URL (unset: a database of its own on the embedded server) and MIGRATE_ON_START. */
  database: DatabaseConfig;
  /** Hex Ed25519 secret key (32 bytes) of the node identity; unset -> generated once and kept in the database. */
  identitySecretKey: string | undefined;
  /** Main API base URL (its published JWKS verifies the service's own email ID tokens). */
  tssApiUrl: string;
  /** Accepted clock difference of a signed request's timestamp, each way. */
  requestWindowMs: number;
  /** How long a committed ID token hash is kept (and so cannot be re-committed). */
  commitTtlMs: number;
  rateLimits: { global: RateLimitConfig; commit: RateLimitConfig; keyshare: RateLimitConfig; check: RateLimitConfig; info: RateLimitConfig };
  shareCipher: () => ShareCipher;
  /** Login providers whose ID tokens the node accepts: the same variables as tss-api. */
  providers: IdTokenProvidersConfig;
}

const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export function loadConfig(source: Record<string, string | undefined>): KeyshareNodeConfig {
  const env = new EnvReader(source);
  const port = env.port('PORT', 4201);
  const nodeName = env.string('KS_NODE_NAME', 'node-1');
  if (!NODE_NAME.test(nodeName)) env.fail('KS_NODE_NAME must be 1-63 characters of letters, digits, ".", "_" and "-"');
  const identitySecretKey = env.optionalString('KS_NODE_IDENTITY_KEY');
  if (identitySecretKey !== undefined && !/^[0-9a-f]{64}$/.test(identitySecretKey)) {
    env.fail('KS_NODE_IDENTITY_KEY must be 64 lowercase hex characters (an Ed25519 secret key)');
  }
  const limit = (name: string, perMinute: number): RateLimitConfig => ({
    windowMs: 60_000,
    limit: env.int(`KS_RATE_LIMIT_${name}_PER_MINUTE`, perMinute, { min: 1 }),
  });
  const config: KeyshareNodeConfig = {
    port,
    host: env.string('HOST', '0.0.0.0'),
    logLevel: env.string('LOG_LEVEL', 'info'),
    nodeName,
    publicUrl: env.url('PUBLIC_URL', `http://127.0.0.1:${port}`),
    database: readDatabaseConfig(env),
    identitySecretKey,
    tssApiUrl: env.url('TSS_API_URL', 'http://127.0.0.1:4210'),
    requestWindowMs: env.int('KS_REQUEST_WINDOW_SECONDS', 60, { min: 5, max: 600 }) * 1000,
    commitTtlMs: env.int('KS_COMMIT_TTL_SECONDS', 86_400, { min: 3600 }) * 1000,
    rateLimits: {
      global: limit('GLOBAL', 3000),
      commit: limit('COMMIT', 60),
      keyshare: limit('KEYSHARE', 60),
      // The main API asks every node once per user/check, all from one address.
      check: limit('CHECK', 1200),
      info: limit('INFO', 120),
    },
    shareCipher: readShareCipherConfig(env),
    providers: readProviders(env, env.url('TSS_API_URL', 'http://127.0.0.1:4210')),
  };
  env.done();
  return config;
}

/**
 * The providers, from the variables tss-api reads (docs/configuration.md), so one set of values
 * configures both. The email login's tokens are the main API's own: issuer EMAIL_ID_TOKEN_ISSUER
 * (tss-api's PUBLIC_URL + /tss/v1), keys fetched from tss-api's JWKS.
 */
function readProviders(env: EnvReader, tssApiUrl: string): IdTokenProvidersConfig {
  const oidc = (prefix: string, issuer: string, jwksUri: string): OidcProviderConfig | undefined => {
    const clientId = env.optionalString(`${prefix}_CLIENT_ID`);
    if (!clientId) return undefined;
    return {
      issuer: env.string(`${prefix}_ISSUER`, issuer).split(',').map((s) => s.trim()),
      audience: clientId.split(',').map((s) => s.trim()),
      jwksUri: env.url(`${prefix}_JWKS_URI`, jwksUri),
    };
  };
  const providers: IdTokenProvidersConfig = {};
  if (env.bool('EMAIL_LOGIN_ENABLED', true)) {
    providers.email = {
      issuer: env.url('EMAIL_ID_TOKEN_ISSUER', 'http://127.0.0.1:4200/tss/v1'),
      audience: env.string('EMAIL_ID_TOKEN_AUDIENCE', 'svc-tss-wallet'),
      jwksUri: env.url('EMAIL_ID_TOKEN_JWKS_URI', `${tssApiUrl.replace(/\/+$/, '')}/tss/v1/.well-known/jwks.json`),
    };
  }
  const google = oidc('GOOGLE', 'https://accounts.google.com,accounts.google.com', 'https://www.googleapis.com/oauth2/v3/certs');
  const apple = oidc('APPLE', 'https://appleid.apple.com', 'https://appleid.apple.com/auth/keys');
  if (google) providers.google = google;
  if (apple) providers.apple = apple;
  const rawOidc = env.optionalString('OIDC_PROVIDERS');
  if (rawOidc) {
    try {
      const list = JSON.parse(rawOidc) as { issuer: string; client_id: string; jwks_uri: string }[];
      providers.oidc = list.map((p) => {
        if (!p.issuer || !p.client_id || !p.jwks_uri) throw new Error('incomplete');
        return { issuer: p.issuer, audience: p.client_id, jwksUri: p.jwks_uri };
      });
    } catch {
      env.fail('OIDC_PROVIDERS must be a JSON array of {"issuer","client_id","jwks_uri"}');
    }
  }
  if (env.bool('X_LOGIN_ENABLED', false)) providers.x = { baseUrl: env.url('X_API_BASE_URL', 'https://api.x.com') };
  if (env.bool('DISCORD_LOGIN_ENABLED', false)) providers.discord = { baseUrl: env.url('DISCORD_API_BASE_URL', 'https://discord.com/api/v10') };
  const telegramBotToken = env.optionalString('TELEGRAM_BOT_TOKEN');
  if (telegramBotToken) providers.telegram = { botToken: telegramBotToken, maxAgeSeconds: env.int('TELEGRAM_AUTH_MAX_AGE_SECONDS', 86_400, { min: 60 }) };
  return providers;
}
