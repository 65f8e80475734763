import { AppError } from '@svc/envelope';
import type { Registry } from 'prom-client';
import { defineRoute, type RouteDef } from './route.js';

/** A readiness probe: resolves when the service can serve (e.g. its database answers). */
export type ReadinessCheck = () => Promise<void>;

/**
 * /health (liveness: the process answers), /ready (its dependencies answer) and /metrics
 * (Prometheus text). They are ordinary routes so they appear in the OpenAPI document too.
 */
export function infraRoutes(registry: Registry, ready: ReadinessCheck | undefined): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      summary: 'Liveness: the process is up',
      tags: ['monitoring'],
      response: { type: 'object', properties: { status: { const: 'ok' } } },
      handler: () => ({ status: 'ok' }),
    }),
    defineRoute({
      method: 'get',
      path: '/ready',
      summary: 'Readiness: dependencies (the database) answer',
      tags: ['monitoring'],
      errors: ['NOT_READY'],
      response: { type: 'object', properties: { status: { const: 'ready' } } },
      handler: async () => {
        try {
          await ready?.();
        } catch (cause) {
          throw new AppError('NOT_READY', 'Service is not ready', { cause });
        }
        return { status: 'ready' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics (text exposition format, not the envelope)',
      tags: ['monitoring'],
      handler: async (_req, res) => {
        res.type(registry.contentType).send(await registry.metrics());
      },
    }),
  ];
}
