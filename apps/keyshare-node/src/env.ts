import { readSocialProviders, type IdTokenProvidersConfig } from '@svc/auth';
import { EnvReader, type TrustProxy } from '@svc/config';
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
  /** TRUST_PROXY: whose X-Forwarded-For names the client (default loopback; docs/operations.md). */
  trustProxy: TrustProxy;
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
    trustProxy: env.trustProxy('TRUST_PROXY'),
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
  const providers: IdTokenProvidersConfig = readSocialProviders(env);
  if (env.bool('EMAIL_LOGIN_ENABLED', true)) {
    providers.email = {
      issuer: env.url('EMAIL_ID_TOKEN_ISSUER', 'http://127.0.0.1:4200/tss/v1'),
      audience: env.string('EMAIL_ID_TOKEN_AUDIENCE', 'svc-tss-wallet'),
      jwksUri: env.url('EMAIL_ID_TOKEN_JWKS_URI', `${tssApiUrl.replace(/\/+$/, '')}/tss/v1/.well-known/jwks.json`),
    };
  }
  return providers;
}
