import { readAccountServiceConfig, type AccountServiceConfig } from '@svc/accounts';
import { EnvReader } from '@svc/config';
import { readDatabaseConfig } from '@svc/db';

export type AdminApiConfig = AccountServiceConfig;

export const ADMIN_API_PORT = 4220;

/** The admin-api configuration, read once at start-up (docs/api/admin.md lists the variables). */
export function loadConfig(source: Record<string, string | undefined> = process.env): AdminApiConfig {
  const env = new EnvReader(source);
  const config = readAccountServiceConfig(env, ADMIN_API_PORT);
  env.done();
  return config;
}

/** Input of `pnpm admin:create` from the environment (flags and a prompt are the other sources). */
export function loadCreateAdminEnv(source: Record<string, string | undefined> = process.env) {
  const env = new EnvReader(source);
  const input = {
    email: env.optionalString('ADMIN_EMAIL'),
    password: env.optionalString('ADMIN_PASSWORD'),
    database: readDatabaseConfig(env),
  };
  env.done();
  return input;
}
