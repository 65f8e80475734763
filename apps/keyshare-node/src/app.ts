import { databaseUnavailableError } from '@svc/db';
import { createLogger, createServiceApp, rateLimitGuard, type Logger, type ServiceApp } from '@svc/http';
import type { ShareCipher } from '@svc/share-cipher';
import { pingNodeDb, type NodeDb } from './kernel/database.js';
import type { KeyshareNodeConfig, RateLimitConfig } from './env.js';
import type { VerifyIdToken } from './kernel/id-token.js';
import type { NodeIdentity } from './kernel/identity.js';
import { CommitRepo } from './modules/commit/repo.js';
import { commitRoutes } from './modules/commit/routes.js';
import { CommitService } from './modules/commit/service.js';
import { KeyShareRepo } from './modules/keyshare/repo.js';
import { keyshareRoutes } from './modules/keyshare/routes.js';
import { KeyShareService } from './modules/keyshare/service.js';
import { nodeInfoRoutes } from './modules/node-info/routes.js';
import { RequestAuthenticator } from './kernel/signed-request/authenticator.js';
import { signedRequestGuard } from './kernel/signed-request/guard.js';
import { jsonWithRawBody } from './kernel/signed-request/raw-body.js';

export interface KeyshareNodeDeps {
  config: KeyshareNodeConfig;
  db: NodeDb;
  cipher: ShareCipher;
  identity: NodeIdentity;
  /** The ID-token verifier (same providers as tss-api). */
  verifyIdToken: VerifyIdToken;
  logger?: Logger;
  clock?: () => number;
}

/** A key share node (no listen): /commit/v1, /keyshare/v1, /health, /ready, /metrics, /docs. */
export function createApp(deps: KeyshareNodeDeps): ServiceApp {
  const { config, db } = deps;
  const clock = deps.clock ?? Date.now;
  const logger = deps.logger ?? createLogger(`keyshare-node ${config.nodeName}`, config.logLevel);
  const commits = new CommitRepo(db);
  const authenticator = new RequestAuthenticator({ nodeName: config.nodeName, verifyIdToken: deps.verifyIdToken, commits, windowMs: config.requestWindowMs, clock });
  const limit = (name: string, c: RateLimitConfig) => rateLimitGuard({ name, windowMs: c.windowMs, limit: c.limit });
  const keyshares = new KeyShareService(new KeyShareRepo(db), deps.cipher, config.nodeName, clock);

  return createServiceApp({
    name: `keyshare-node`,
    trustProxy: config.trustProxy,
    classifyError: databaseUnavailableError,
    description: `Key share node "${config.nodeName}": stores users' backup shares, bound to committed ID tokens (docs/keyshare.md).`,
    logger,
    routes: [
      ...commitRoutes(new CommitService(commits, config.commitTtlMs, clock), limit('commitRateLimit', config.rateLimits.commit)),
      ...keyshareRoutes(keyshares, {
        signed: signedRequestGuard(authenticator),
        userRateLimit: limit('keyshareRateLimit', config.rateLimits.keyshare),
        checkRateLimit: limit('checkRateLimit', config.rateLimits.check),
      }),
      ...nodeInfoRoutes({ name: config.nodeName, publicUrl: config.publicUrl, identity: deps.identity }, limit('infoRateLimit', config.rateLimits.info)),
    ],
    ready: () => pingNodeDb(db),
    // Every path (also /health, /ready, /metrics, /docs) is rate limited per client address;
    // the routes add tighter limits of their own.
    beforeRoutes: (app) => app.use(limit('nodeRateLimit', config.rateLimits.global).middleware, jsonWithRawBody),
  });
}
