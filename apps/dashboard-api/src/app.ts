import { apiKeyRepo, customerRepo, dashboardUserRepo, emailCodes, rateLimitStores, tokenRevocation } from '@svc/accounts';
import { jwtGuard, ServiceJwt } from '@svc/auth';
import { databaseUnavailableError, pingDb, type PrismaClient } from '@svc/db';
import { createLogger, createServiceApp, type Logger, type ServiceApp } from '@svc/http';
import type { Mailer } from '@svc/mailer';
import type { DashboardContext } from './kernel/context.js';
import type { DashboardApiConfig } from './env.js';
import { authRepo } from './modules/auth/repo.js';
import { authRoutes } from './modules/auth/routes.js';
import { authService } from './modules/auth/service.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { apiKeysService } from './modules/api-keys/service.js';
import { customerMetadataRepo } from './modules/customer/repo.js';
import { customerRoutes } from './modules/customer/routes.js';
import { customerService } from './modules/customer/service.js';

export interface DashboardApiDeps {
  config: DashboardApiConfig;
  db: PrismaClient;
  mailer: Mailer;
  logger?: Logger;
}

/**
 * The customer dashboard API (/customer_dashboard/v1), without listening. The composition
 * root: repositories from the database, services from repositories, routes from services and
 * the guards.
 */
export function createApp({ config, db, mailer, logger }: DashboardApiDeps): ServiceApp {
  const log = logger ?? createLogger('dashboard-api', config.logLevel);
  const jwt = new ServiceJwt({ secret: config.jwtSecret, expiresIn: config.jwtExpiresIn });
  const revocation = tokenRevocation(db);
  const ctx: DashboardContext = {
    customerAuth: jwtGuard('customer', jwt, { isRevoked: revocation.isRevoked }),
    rateLimits: rateLimitStores(db),
  };
  const customers = customerRepo(db);
  const auth = authService({
    repo: authRepo(db),
    users: dashboardUserRepo(db),
    customers,
    jwt,
    revocation,
    // Codes are MACed with a key derived from JWT_SECRET (see @svc/accounts email-codes).
    codes: emailCodes(db, { secret: config.jwtSecret, ttlMinutes: config.emailVerificationExpirationMinutes }),
    mailer,
    logger: log,
    sessionLifetimeSeconds: config.sessionLifetimeSeconds,
  });
  const customer = customerService({ repo: customerMetadataRepo(db), customers, currentUser: auth.currentUser });
  const apiKeys = apiKeysService({ apiKeys: apiKeyRepo(db), currentUser: auth.currentUser });
  return createServiceApp({
    name: 'dashboard-api',
    trustProxy: config.trustProxy,
    classifyError: databaseUnavailableError,
    description: 'Customer dashboard: accounts with email verification, the customer and its API keys (created, labelled, limited to origins and revoked here). See docs/api/dashboard.md.',
    logger: log,
    ready: async () => {
      if (!(await pingDb(db))) throw new Error('database does not answer');
    },
    routes: [...authRoutes(auth, ctx), ...customerRoutes(customer, ctx), ...apiKeyRoutes(apiKeys, ctx)],
  });
}
