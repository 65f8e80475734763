import { readAccountServiceConfig, readMailConfig, type AccountServiceConfig } from '@svc/accounts';
import { EnvReader } from '@svc/config';
import type { MailConfig } from '@svc/mailer';

export interface DashboardApiConfig extends AccountServiceConfig {
  mail: MailConfig;
  /** Lifetime of emailed codes (spec §5 rule 5; default 5). */
  emailVerificationExpirationMinutes: number;
  /**
   * DASHBOARD_SESSION_LIFETIME (default 7d): how long after a sign-in its tokens may still be
   * refreshed; the last one then lives out its JWT_EXPIRES_IN. Past it, sign in again.
   */
  sessionLifetimeSeconds: number;
}

export const DASHBOARD_API_PORT = 4230;

/** The dashboard-api configuration, read once at start-up (docs/api/dashboard.md lists the variables). */
export function loadConfig(source: Record<string, string | undefined> = process.env): DashboardApiConfig {
  const env = new EnvReader(source);
  const config: DashboardApiConfig = {
    ...readAccountServiceConfig(env, DASHBOARD_API_PORT),
    mail: readMailConfig(env),
    emailVerificationExpirationMinutes: env.int('EMAIL_VERIFICATION_EXPIRATION_MINUTES', 5, { min: 1, max: 1440 }),
    sessionLifetimeSeconds: env.seconds('DASHBOARD_SESSION_LIFETIME', '7d'),
  };
  env.done();
  return config;
}
