import { AppError } from '@svc/envelope';
import { createLogger, createServiceApp, defineRoute, field, type Logger, type ServiceApp } from '@svc/http';
import type { GatewayConfig } from './env.js';
import { proxyTo } from './proxy.js';
import { upstreamsOf } from './upstreams.js';

export interface GatewayDeps {
  config: GatewayConfig;
  logger?: Logger;
}

const SPEC_TIMEOUT_MS = 3000;

/**
 * The single entry point (:4200). It forwards each API prefix to its service and serves one
 * /docs whose document list holds every upstream's OpenAPI, fetched live so it cannot go stale.
 */
export function createApp({ config, logger }: GatewayDeps): ServiceApp {
  const upstreams = upstreamsOf(config);
  const log = logger ?? createLogger('gateway', config.logLevel);
  const specRoute = defineRoute({
    method: 'get',
    path: '/docs/specs/:service',
    summary: "An upstream service's OpenAPI document",
    tags: ['docs'],
    params: { service: field.oneOf(upstreams.map((u) => u.name)) },
    errors: ['UPSTREAM_UNAVAILABLE'],
    handler: async (req, res) => {
      const upstream = upstreams.find((u) => u.name === req.params.service)!;
      const response = await fetch(new URL('/docs/openapi.json', upstream.target), {
        signal: AbortSignal.timeout(SPEC_TIMEOUT_MS),
      }).catch(() => undefined);
      if (!response?.ok) throw new AppError('UPSTREAM_UNAVAILABLE', `${upstream.name} is unavailable`);
      res.json(await response.json());
    },
  });

  return createServiceApp({
    name: 'gateway',
    trustProxy: config.trustProxy,
    description: 'Routes /tss, /svc_admin and /customer_dashboard to their services.',
    routes: [specRoute],
    logger: log,
    // No readiness dependency on the upstreams: a gateway that is ready only while every
    // upstream is healthy would take /tss out of service when, say, dashboard-api is down.
    // A down upstream is reported per request instead (503 UPSTREAM_UNAVAILABLE).
    // One page, a selector over every service's document (fetched live through the route
    // above, so it cannot go stale) and the gateway's own last.
    docsUrls: [...upstreams.map((u) => ({ name: u.name, url: `/docs/specs/${u.name}` })), { name: 'gateway', url: '/docs/openapi.json' }],
    beforeRoutes: (app) => {
      for (const upstream of upstreams) app.use(proxyTo(upstream, config.upstreamTimeoutMs, log));
    },
  });
}
