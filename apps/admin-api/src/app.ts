import { tokenRevocation } from '@svc/accounts';
import { jwtGuard, ServiceJwt } from '@svc/auth';
import { databaseUnavailableError, pingDb, type PrismaClient } from '@svc/db';
import { createLogger, createServiceApp, type Logger, type ServiceApp } from '@svc/http';
import type { AdminContext } from './context.js';
import type { AdminApiConfig } from './env.js';
import { adminUserRoutes } from './modules/admins/routes.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { customerRoutes } from './modules/customers/routes.js';
import { ksNodeRoutes } from './modules/ks-nodes/routes.js';
import { tssSessionRoutes } from './modules/tss-sessions/routes.js';
import { tssSettingRoutes } from './modules/tss-settings/routes.js';
import { walletRoutes } from './modules/wallets/routes.js';

export interface AdminApiDeps {
  config: AdminApiConfig;
  db: PrismaClient;
  logger?: Logger;
}

/** The admin API (/svc_admin/v1), without listening: index.ts listens, tests use supertest. */
export function createApp({ config, db, logger }: AdminApiDeps): ServiceApp {
  const jwt = new ServiceJwt({ secret: config.jwtSecret, expiresIn: config.jwtExpiresIn });
  const revocation = tokenRevocation(db);
  const ctx: AdminContext = { db, jwt, revocation, adminAuth: jwtGuard('admin', jwt, { isRevoked: revocation.isRevoked }) };
  return createServiceApp({
    name: 'admin-api',
    classifyError: databaseUnavailableError,
    description: 'Administration: customers, API keys, wallets, TSS sessions and settings, key share nodes. See docs/api/admin.md.',
    logger: logger ?? createLogger('admin-api', config.logLevel),
    ready: async () => {
      if (!(await pingDb(db))) throw new Error('database does not answer');
    },
    routes: [
      ...adminUserRoutes(ctx),
      ...customerRoutes(ctx),
      ...apiKeyRoutes(ctx),
      ...walletRoutes(ctx),
      ...tssSessionRoutes(ctx),
      ...tssSettingRoutes(ctx),
      ...ksNodeRoutes(ctx),
    ],
  });
}
