import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import { errorHandler, notFoundHandler, success, type ErrorClassifier } from '@svc/envelope';
import type { Registry } from 'prom-client';
import { infraRoutes, type ReadinessCheck } from './infra-routes.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { buildOpenApi } from './openapi.js';
import { requestId, requestLog } from './request-context.js';
import { observing } from './response-observer.js';
import type { Guard, JsonSchema, RouteDef } from './route.js';
import { validatorFor } from './validation.js';

export const JSON_BODY_LIMIT = '10mb';

export interface ServiceAppOptions {
  /** Service name, used in logs, metrics and the documentation title. */
  name: string;
  version?: string;
  description?: string;
  routes: RouteDef[];
  ready?: ReadinessCheck;
  logger?: Logger;
  /** Allowed CORS origins; default: any origin (spec §5 rule 6). */
  corsOrigins?: string[];
  /** Mounted before the routes and before any body parsing (the gateway's proxy goes here). */
  beforeRoutes?: (app: Express) => void;
  /** Replaces the documentation UI's one document by a list to choose from (the gateway: every service's). */
  docsUrls?: { url: string; name: string }[];
  /** Maps errors of a dependency to their own code before the generic 500 (apps with a database: @svc/db's databaseUnavailableError). */
  classifyError?: ErrorClassifier;
  /**
   * The proxies whose X-Forwarded-For is believed (Express's `trust proxy`): a hop count, or
   * addresses, CIDR ranges and the names loopback / linklocal / uniquelocal (TRUST_PROXY, read
   * by @svc/config's EnvReader.trustProxy). `req.ip`, which per-client rate limits key on, is the
   * first address from the right that is not one of them. Default: loopback only.
   */
  trustProxy?: number | string[];
}

export interface ServiceApp {
  app: Express;
  openapi: JsonSchema;
  logger: Logger;
  metrics: Registry;
}

/**
 * The HTTP kit every app is built on: security headers, CORS, request ids, JSON logs,
 * metrics, health and readiness, validated routes and the /docs generated from them, and
 * the envelope for every error.
 */
export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const logger = options.logger ?? createLogger(options.name);
  const metrics = createMetrics(options.name);
  const routes = [...infraRoutes(metrics.registry, options.ready), ...options.routes];
  const openapi = buildOpenApi(
    { title: options.name, version: options.version ?? '1.0.0', description: options.description ?? '' },
    routes,
  );

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? ['loopback']);
  app.use(requestId, requestLog(logger), metrics.middleware);
  app.use(helmet());
  app.use(
    cors({
      origin: options.corsOrigins ?? true,
      exposedHeaders: ['X-Request-Id'],
      maxAge: 600,
    }),
  );

  options.beforeRoutes?.(app);
  const json = express.json({ limit: JSON_BODY_LIMIT });
  for (const route of routes) mountRoute(app, route, json);

  // After the routes, so that a route under /docs (the gateway's specs) wins over the UI.
  app.get('/docs/openapi.json', (_req, res) => void res.json(openapi));
  // serveFiles() writes swagger-ui-init.js, the script that tells the page what to load:
  // it takes the same options as the page, or a document list would be dropped for this app's own.
  const docs: swaggerUi.SwaggerUiOptions = options.docsUrls
    ? { explorer: true, customSiteTitle: `${options.name} API`, swaggerOptions: { urls: options.docsUrls } }
    : { customSiteTitle: `${options.name} API` };
  const doc = options.docsUrls ? undefined : openapi;
  app.use('/docs', swaggerUi.serveFiles(doc, docs), swaggerUi.setup(doc, docs));

  app.use(notFoundHandler);
  app.use(errorHandler(logger, options.classifyError));
  return { app, openapi, logger, metrics: metrics.registry };
}

function mountRoute(app: Express, route: RouteDef, json: RequestHandler): void {
  const handler: RequestHandler = async (req, res) => {
    const data = await route.handler(req, res);
    if (!res.headersSent) res.status(route.status ?? 200).json(success(data));
  };
  const middleware = tokenFirst(route.guards ?? []).map((g) => g.middleware);
  app[route.method](route.path, observing(route), json, ...middleware, ...(route.before ?? []), validatorFor(route), handler);
}

/**
 * Guards in the order they run: those reading a bearer token (an HTTP bearer security scheme)
 * first, then the rest (the X-API-Key, limits), each group as listed. A missing or bad token
 * is then always spec §4.1 rule 1 / §5 rule 4's 401 UNAUTHORIZED, whatever else is wrong.
 */
function tokenFirst(guards: readonly Guard[]): Guard[] {
  const bearer = (g: Guard) => g.scheme.type === 'http' && g.scheme.scheme === 'bearer';
  return [...guards.filter(bearer), ...guards.filter((g) => !bearer(g))];
}
