import { apiKeyRepo, customerRepo, rateLimitStores, tokenRevocation } from '@svc/accounts';
import { jwtGuard, ServiceJwt } from '@svc/auth';
import { databaseUnavailableError, pingDb, type PrismaClient } from '@svc/db';
import { createLogger, createServiceApp, type Logger, type ServiceApp } from '@svc/http';
import type { AdminContext } from './kernel/context.js';
import type { AdminApiConfig } from './env.js';
import { adminsRepo } from './modules/admins/repo.js';
import { adminUserRoutes } from './modules/admins/routes.js';
import { adminsService } from './modules/admins/service.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { apiKeysService } from './modules/api-keys/service.js';
import { customersRepo } from './modules/customers/repo.js';
import { customerRoutes } from './modules/customers/routes.js';
import { customersService } from './modules/customers/service.js';
import { ksNodesRepo } from './modules/ks-nodes/repo.js';
import { ksNodeRoutes } from './modules/ks-nodes/routes.js';
import { ksNodesService } from './modules/ks-nodes/service.js';
import { tssSessionsRepo } from './modules/tss-sessions/repo.js';
import { tssSessionRoutes } from './modules/tss-sessions/routes.js';
import { tssSessionsService } from './modules/tss-sessions/service.js';
import { tssSettingsRepo } from './modules/tss-settings/repo.js';
import { tssSettingRoutes } from './modules/tss-settings/routes.js';
import { tssSettingsService } from './modules/tss-settings/service.js';
import { walletsRepo } from './modules/wallets/repo.js';
import { walletRoutes } from './modules/wallets/routes.js';
import { walletsService } from './modules/wallets/service.js';

export interface AdminApiDeps {
  config: AdminApiConfig;
  db: PrismaClient;
  logger?: Logger;
}

/**
 * The admin API (/svc_admin/v1), without listening: index.ts listens, tests use supertest.
 * The composition root: repositories from the database, services from repositories, routes
 * from services and the guards.
 */
export function createApp({ config, db, logger }: AdminApiDeps): ServiceApp {
  const jwt = new ServiceJwt({ secret: config.jwtSecret, expiresIn: config.jwtExpiresIn });
  const revocation = tokenRevocation(db);
  const ctx: AdminContext = { adminAuth: jwtGuard('admin', jwt, { isRevoked: revocation.isRevoked }), rateLimits: rateLimitStores(db) };
  return createServiceApp({
    name: 'admin-api',
    trustProxy: config.trustProxy,
    classifyError: databaseUnavailableError,
    description: 'Administration: customers, API keys, wallets, TSS sessions and settings, key share nodes. See docs/api/admin.md.',
    logger: logger ?? createLogger('admin-api', config.logLevel),
    ready: async () => {
      if (!(await pingDb(db))) throw new Error('database does not answer');
    },
    routes: [
      ...adminUserRoutes(adminsService({ repo: adminsRepo(db), jwt, revocation }), ctx),
      ...customerRoutes(customersService(customersRepo(db)), ctx),
      ...apiKeyRoutes(apiKeysService({ customers: customerRepo(db), apiKeys: apiKeyRepo(db) }), ctx),
      ...walletRoutes(walletsService(walletsRepo(db)), ctx),
      ...tssSessionRoutes(tssSessionsService(tssSessionsRepo(db)), ctx),
      ...tssSettingRoutes(tssSettingsService(tssSettingsRepo(db)), ctx),
      ...ksNodeRoutes(ksNodesService(ksNodesRepo(db)), ctx),
    ],
  });
}
