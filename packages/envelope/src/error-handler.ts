import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from './app-error.js';
import { failure } from './envelope.js';
import { describeError } from './redact.js';
import { transportError } from './transport-errors.js';

/** The minimal logger the handlers need; winston's logger satisfies it. */
export interface ErrorLogger {
  error(message: string, meta: Record<string, unknown>): unknown;
}

export const GENERIC_ERROR_MSG = 'Something went wrong';

/** Recognises errors of a dependency (e.g. @svc/db's outage) that deserve their own code. */
export type ErrorClassifier = (err: unknown) => AppError | undefined;

/** Turns anything thrown into the envelope; a 500 never leaks its detail. */
export function errorHandler(logger: ErrorLogger, classify?: ErrorClassifier): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const appError = (!(err instanceof AppError) && classify?.(err)) || toAppError(err);
    if (appError.status >= 500) {
      logger.error('request failed', {
        request_id: res.locals.requestId,
        method: req.method,
        // The route pattern, not the path: a path may hold whatever the client typed.
        route: (req.route as { path?: string } | undefined)?.path ?? 'unmatched',
        code: appError.code,
        error: describeError(appError.cause ?? err),
      });
    }
    if (res.headersSent) return;
    res.status(appError.status).json(failure(appError.code, appError.msg));
  };
}

/** The 404 for routes nobody mounted. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError('NOT_FOUND', `Route ${req.method} ${req.path} not found`));
};

function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return transportError(err) ?? new AppError('UNKNOWN_ERROR', GENERIC_ERROR_MSG, { cause: err });
}
