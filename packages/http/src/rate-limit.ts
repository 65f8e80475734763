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
  /**
   * Past the limit, call this and let the request through instead of answering 429: for a route
   * that has a cheaper answer to fall back to, where refusing would let anyone who knows the key
   * (an email, say) lock its owner out. The route reads what this marked on `res.locals`.
   */
  overLimit?: (req: Request, res: Response) => void;
}

/**
 * A route guard that answers 429 RATE_LIMITED (with Retry-After) past `limit` requests per
 * key in `windowMs`, counted in `store` (default: per process); with `overLimit`, it marks the
 * request instead and lets it through.
 */
export function rateLimitGuard(options: RateLimitOptions) {
  const { overLimit } = options;
  const limiter = rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    ...(options.key ? { keyGenerator: options.key } : {}),
    ...(options.skip ? { skip: options.skip } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.passOnStoreError ? { passOnStoreError: true } : {}),
    handler: (req: Request, res: Response, next: (err?: unknown) => void) => {
      if (overLimit) {
        overLimit(req, res);
        next();
        return;
      }
      next(new AppError('RATE_LIMITED', 'Too many requests, try again later'));
    },
  });
  const per = `${options.limit} requests per ${Math.round(options.windowMs / 1000)} s`;
  return {
    name: options.name,
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Rate-Limit',
      description: overLimit ? `Budget of ${per}, past which the route answers more cheaply (not a credential)` : `Rate limited: ${per} (not a credential)`,
    },
    errors: overLimit ? ([] as const) : (['RATE_LIMITED'] as const),
    middleware: limiter,
  };
}
