import type { Request, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { AppError } from '@svc/envelope';

export interface RateLimitOptions {
  /** Name in the documentation, e.g. "loginRateLimit". */
  name: string;
  windowMs: number;
  /** Requests allowed per key and window. */
  limit: number;
  /** What requests are counted by; default the client IP. */
  key?: (req: Request) => string;
}

/**
 * A route guard that answers 429 RATE_LIMITED (with Retry-After) past `limit` requests per
 * key in `windowMs`. Counts are kept per process: behind N replicas the effective limit is
 * N times higher, which docs/operations.md states.
 */
export function rateLimitGuard(options: RateLimitOptions) {
  const limiter = rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    ...(options.key ? { keyGenerator: options.key } : {}),
    handler: (_req: Request, _res: Response, next: (err?: unknown) => void) => {
      next(new AppError('RATE_LIMITED', 'Too many requests, try again later'));
    },
  });
  return {
    name: options.name,
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Rate-Limit',
      description: `Rate limited: ${options.limit} requests per ${Math.round(options.windowMs / 1000)} s (not a credential)`,
    },
    middleware: limiter,
  };
}
