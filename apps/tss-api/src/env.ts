import { EnvReader, type TrustProxy } from '@svc/config';
import { sssNodeXCoordinate } from '@svc/crypto';
import { readDatabaseConfig, type DatabaseConfig } from '@svc/db';
import { readSocialProviders, type IdTokenProvidersConfig } from '@svc/auth';
import type { MailConfig } from '@svc/mailer';
import { readShareCipherConfig } from '@svc/share-cipher';
import type { ShareCipher } from '@svc/share-cipher';

export interface KeyshareNodeSeed {
  name: string;
  endpoint: string;
}

export interface TssApiConfig {
  port: number;
  host: string;
  logLevel: string;
  /** TRUST_PROXY: whose X-Forwarded-For names the client (default loopback; docs/operations.md). */
  trustProxy: TrustProxy;
  /** DATABASE_URL (unset: the embedded server) and MIGRATE_ON_START. */
  database: DatabaseConfig;
  /** Public base URL of the gateway; the email login's issuer is `${publicUrl}/tss/v1`. */
  publicUrl: string;
  jwt: {
    secret: string;
    /** JWT_EXPIRES_IN in seconds (written "3600", "1h" or "1H"). */
    expiresIn: number;
    /** SIGNIN_SILENTLY_WINDOW in seconds: how long after expiry a token may still be refreshed. */
    silentRefreshWindowSeconds: number;
  };
  shareCipher: () => ShareCipher;
  mail: MailConfig;
  emailLogin: {
    enabled: boolean;
    codeTtlMinutes: number;
    maxAttempts: number;
    /** EMAIL_ID_TOKEN_PRIVATE_KEY: private JWK (EC P-256 or Ed25519) as JSON; unset -> an ephemeral key. */
    privateJwk?: Record<string, unknown>;
    idTokenTtlSeconds: number;
    audience: string;
    /** Code requests per email address and per client IP in one window. */
    rateLimit: { windowMs: number; perEmail: number; perIp: number };
  };
  /** Social and OIDC providers (the email provider is added by the app from emailLogin). */
  providers: Omit<IdTokenProvidersConfig, 'email'>;
  tssSessionTtlSeconds: number;
  /**
   * API_KEY_CACHE_SECONDS: how long a replica reuses an API key lookup (default 5, 0 = off); a
   * revoked key or suspended customer is refused by every replica at most this long afterwards.
   */
  apiKeyCacheSeconds: number;
  /** How often each replica ends sessions left ACTIVE past their TTL (TSS_SESSION_SWEEP_SECONDS). */
  tssSessionSweepSeconds: number;
  /** TSS_OPEN_SESSIONS_MAX: ACTIVE triples/presign runs one wallet may have open (default 4). */
  tssOpenSessionsMax: number;
  /** Limits of the costly calls, counted in PostgreSQL (TRIPLES_RATE_LIMIT_PER_MINUTE, KEYGEN_RATE_LIMIT_PER_HOUR, USER_CHECK_RATE_LIMIT_PER_MINUTE, USER_CHECK_RATE_LIMIT_PER_EMAIL_PER_MINUTE). */
  rateLimits: { triplesPerMinute: number; keygenPerHour: number; userCheckPerMinute: number; userCheckPerEmailPerMinute: number };
  /** Two-party ECDSA pools (docs/api/tss-ecdsa.md). */
  ecdsa: {
    /** ECDSA_PRESIGNATURE_POOL_MAX: unused presignatures a wallet may hold (default 100). */
    presignaturePoolMax: number;
    /** ECDSA_TRIPLE_POOL_MAX: unused triples a wallet may hold (default 2 per allowed presignature). */
    triplePoolMax: number;
    /** ECDSA_TRIPLE_BATCH_MAX: triples per generation run (default 64: a ~6.3 MB message under the 10 MB body limit). */
    tripleBatchMax: number;
  };
  keyshare: { nodes: KeyshareNodeSeed[]; threshold: number };
}

export function loadConfig(source: Record<string, string | undefined>): TssApiConfig {
  const env = new EnvReader(source);
  const publicUrl = env.url('PUBLIC_URL', 'http://127.0.0.1:4200').replace(/\/+$/, '');

  const smtpHost = env.optionalString('SMTP_HOST');
  const mail: MailConfig = {
    from: env.string('FROM_EMAIL', 'wallet@localhost'),
    ...(smtpHost ? { host: smtpHost, port: env.port('SMTP_PORT', 587) } : {}),
    ...(env.optionalString('SMTP_USER') ? { user: env.optionalString('SMTP_USER'), pass: env.optionalString('SMTP_PASS') } : {}),
    ...(env.optionalString('MAIL_SPOOL_DIR') ? { devSpoolDir: env.optionalString('MAIL_SPOOL_DIR') } : {}),
  };
  if (smtpHost && mail.port !== 587) env.fail('SMTP_PORT must be 587 when SMTP_HOST is set');

  let privateJwk: Record<string, unknown> | undefined;
  const rawJwk = env.optionalString('EMAIL_ID_TOKEN_PRIVATE_KEY');
  if (rawJwk) {
    try {
      privateJwk = JSON.parse(rawJwk) as Record<string, unknown>;
      if (typeof privateJwk.d !== 'string') throw new Error('no private part');
    } catch {
      env.fail('EMAIL_ID_TOKEN_PRIVATE_KEY must be a private JWK (EC P-256 or OKP Ed25519) as JSON');
    }
  }

  const providers: TssApiConfig['providers'] = readSocialProviders(env);

  const nodes: KeyshareNodeSeed[] = [];
  for (const entry of (env.optionalString('KEYSHARE_NODES') ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const eq = entry.indexOf('=');
    const name = entry.slice(0, eq).trim();
    const endpoint = entry.slice(eq + 1).trim();
    if (eq <= 0 || !URL.canParse(endpoint)) {
      env.fail(`KEYSHARE_NODES entry "${entry}" must be name=url`);
      continue;
    }
    // Each node's Shamir x-coordinate comes from its name; two at one x fail every backup.
    const twin = nodes.find((n) => sssNodeXCoordinate(n.name) === sssNodeXCoordinate(name));
    if (twin) env.fail(`KEYSHARE_NODES: ${twin.name === name ? `${name} is listed twice` : `${twin.name} and ${name} have the same Shamir x-coordinate: rename one`}`);
    else nodes.push({ name, endpoint });
  }

  const config: TssApiConfig = {
    port: env.port('PORT', 4210),
    host: env.string('HOST', '0.0.0.0'),
    logLevel: env.string('LOG_LEVEL', 'info'),
    trustProxy: env.trustProxy('TRUST_PROXY'),
    database: readDatabaseConfig(env),
    publicUrl,
    jwt: {
      secret: env.secret('JWT_SECRET', 32),
      expiresIn: env.seconds('JWT_EXPIRES_IN', '1h'),
      silentRefreshWindowSeconds: env.seconds('SIGNIN_SILENTLY_WINDOW', '7d'),
    },
    shareCipher: readShareCipherConfig(env),
    mail,
    emailLogin: {
      enabled: env.bool('EMAIL_LOGIN_ENABLED', true),
      codeTtlMinutes: env.int('EMAIL_VERIFICATION_EXPIRATION_MINUTES', 5, { min: 1, max: 60 }),
      maxAttempts: env.int('EMAIL_CODE_MAX_ATTEMPTS', 5, { min: 1, max: 20 }),
      ...(privateJwk ? { privateJwk } : {}),
      idTokenTtlSeconds: env.seconds('EMAIL_ID_TOKEN_TTL', '10m'),
      audience: env.string('EMAIL_ID_TOKEN_AUDIENCE', 'svc-tss-wallet'),
      rateLimit: {
        windowMs: env.seconds('EMAIL_CODE_RATE_WINDOW', '10m') * 1000,
        perEmail: env.int('EMAIL_CODE_RATE_LIMIT_PER_EMAIL', 5, { min: 1 }),
        perIp: env.int('EMAIL_CODE_RATE_LIMIT_PER_IP', 30, { min: 1 }),
      },
    },
    providers,
    tssSessionTtlSeconds: env.int('TSS_SESSION_TTL_SECONDS', 300, { min: 5, max: 86_400 }),
    apiKeyCacheSeconds: env.int('API_KEY_CACHE_SECONDS', 5, { min: 0, max: 60 }),
    tssSessionSweepSeconds: env.int('TSS_SESSION_SWEEP_SECONDS', 60, { min: 1, max: 3_600 }),
    tssOpenSessionsMax: env.int('TSS_OPEN_SESSIONS_MAX', 4, { min: 1, max: 100 }),
    rateLimits: {
      triplesPerMinute: env.int('TRIPLES_RATE_LIMIT_PER_MINUTE', 20, { min: 1 }),
      keygenPerHour: env.int('KEYGEN_RATE_LIMIT_PER_HOUR', 10, { min: 1 }),
      userCheckPerMinute: env.int('USER_CHECK_RATE_LIMIT_PER_MINUTE', 120, { min: 1 }),
      userCheckPerEmailPerMinute: env.int('USER_CHECK_RATE_LIMIT_PER_EMAIL_PER_MINUTE', 30, { min: 1 }),
    },
    ecdsa: (() => {
      const presignaturePoolMax = env.int('ECDSA_PRESIGNATURE_POOL_MAX', 100, { min: 1, max: 10_000 });
      return {
        presignaturePoolMax,
        triplePoolMax: env.int('ECDSA_TRIPLE_POOL_MAX', 2 * presignaturePoolMax, { min: 2, max: 20_000 }),
        tripleBatchMax: env.int('ECDSA_TRIPLE_BATCH_MAX', 64, { min: 2, max: 64 }),
      };
    })(),
    keyshare: { nodes, threshold: env.int('KEYSHARE_THRESHOLD', 2, { min: 1, max: 255 }) },
  };
  env.done();
  return config;
}
