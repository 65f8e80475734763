import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from './logger.js';

const REQUEST_ID_HEADER = 'x-request-id';
// A caller-supplied id is kept only when it is short and plain, so logs cannot be forged.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Gives every request an id (echoed in `X-Request-Id`) that ties its log lines together. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get(REQUEST_ID_HEADER);
  const id = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};

/**
 * One log line per request, written when the response finishes. Only the method, path
 * (never the query string or body, which may carry tokens or shares), status and timing.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    // winston formats a line before its level filter drops it: skip the work when info is off.
    if (!logger.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info('request', {
        request_id: res.locals.requestId,
        method: req.method,
        path: req.path,
        route: routeLabel(req),
        status: res.statusCode,
        duration_ms: Math.round(durationMs * 100) / 100,
      });
    });
    next();
  };
}

/** The matched route pattern (bounded cardinality), or "unmatched". */
export function routeLabel(req: { baseUrl?: string; route?: { path?: unknown } }): string {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : 'unmatched';
}
