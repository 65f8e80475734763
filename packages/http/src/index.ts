export { createServiceApp, JSON_BODY_LIMIT, type ServiceApp, type ServiceAppOptions } from './create-service-app.js';
export { defineRoute, type RouteDef, type Guard, type FieldRules, type JsonSchema, type HttpMethod } from './route.js';
export { buildOpenApi, toOpenApiPath, fieldSchemaOf } from './openapi.js';
export { createLogger, type Logger } from './logger.js';
export { routeLabel } from './request-context.js';
export type { ReadinessCheck } from './infra-routes.js';
export { listen, onShutdown, type RunningServer } from './server.js';
export { listMountedRoutes } from './introspect.js';
export { rateLimitGuard, type RateLimitOptions } from './rate-limit.js';
