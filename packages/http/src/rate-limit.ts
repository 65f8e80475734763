import type { Request, Response } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { AppError } from '@svc/envelope';

export interface RateLimitOptions {
  /** Name in the documentation, e.g. "loginRateLimit". */
  name: string;
  windowMs: number;
  /** Requests allowed per key and window. */
  limit: number;
  /** What requests are counted by; default the client IP. Runs after the route's earlier guards (e.g. the user's JWT). */
  key?: (req: Request, res: Response) => string;
  /** Requests that are not counted (e.g. the later steps of a protocol run on the same route). */
  skip?: (req: Request, res: Response) => boolean;
  /**
   * Where counts live. Default: this process's memory (behind N replicas the effective limit is
   * N times higher). Pass @svc/db's rateLimitStore to share one count across replicas.
   */
  store?: Store;
  /**
   * Let the request through when the store fails (default: the store's error is the answer).
   * For a route whose own failure the spec words (tss-api's user/check: 500 "Failed to get
   * user"), so a broken database answers as the spec says rather than as the limiter's store.
   */
  passOnStoreError?: boolean;
}

/**
 * A route guard that answers 429 RATE_LIMITED (with Retry-After) past `limit` requests per
 * key in `windowMs`, counted in `store` (default: per process).
 */
export function rateLimitGuard(options: RateLimitOptions) {
  const limiter = rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    ...(options.key ? { keyGenerator: options.key } : {}),
    ...(options.skip ? { skip: options.skip } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.passOnStoreError ? { passOnStoreError: true } : {}),
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
    errors: ['RATE_LIMITED'] as const,
    middleware: limiter,
  };
}
