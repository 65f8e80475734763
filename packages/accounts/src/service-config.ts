import type { EnvReader, TrustProxy } from '@svc/config';
import { readDatabaseConfig, type DatabaseConfig } from '@svc/db';
import type { MailConfig } from '@svc/mailer';

/** Configuration both account services read (each from its own env.ts). */
export interface AccountServiceConfig {
  port: number;
  host: string;
  logLevel: string;
  /** TRUST_PROXY: whose X-Forwarded-For names the client (default loopback; docs/operations.md). */
  trustProxy: TrustProxy;
  /** DATABASE_URL (unset: the embedded server of `pnpm start`) and MIGRATE_ON_START. */
  database: DatabaseConfig;
  jwtSecret: string;
  /** JWT lifetime in seconds: JWT_EXPIRES_IN, written as seconds or a number with s/m/h/d in either case (default 1h, spec §5 rule 2). */
  jwtExpiresIn: number;
}

export function readAccountServiceConfig(env: EnvReader, defaultPort: number): AccountServiceConfig {
  const jwtExpiresIn = env.seconds('JWT_EXPIRES_IN', '1h');
  return {
    port: env.port('PORT', defaultPort),
    host: env.string('HOST', '0.0.0.0'),
    logLevel: env.oneOf('LOG_LEVEL', ['error', 'warn', 'info', 'http', 'debug', 'silent'] as const, 'info'),
    trustProxy: env.trustProxy('TRUST_PROXY'),
    database: readDatabaseConfig(env),
    jwtSecret: env.secret('JWT_SECRET', 32),
    jwtExpiresIn,
  };
}

/** SMTP (spec §5 rule 5): SMTP_HOST unset means the in-process server writing to MAIL_SPOOL_DIR. */
export function readMailConfig(env: EnvReader): MailConfig {
  const host = env.optionalString('SMTP_HOST');
  const port = env.port('SMTP_PORT', 587);
  if (host && port !== 587) env.fail(`SMTP_PORT must be 587, got ${port}`);
  return {
    host,
    port,
    user: env.optionalString('SMTP_USER'),
    pass: env.optionalString('SMTP_PASS'),
    from: env.string('FROM_EMAIL', 'no-reply@svc.local'),
    devSpoolDir: env.optionalString('MAIL_SPOOL_DIR'),
  };
}
