import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from './app-error.js';
import { failure } from './envelope.js';

/** The minimal logger the handlers need; winston's logger satisfies it. */
export interface ErrorLogger {
  error(message: string, meta: Record<string, unknown>): unknown;
}

export const GENERIC_ERROR_MSG = 'Something went wrong';

type BodyParserError = Error & { type?: string; status?: number };

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
        path: req.path,
        code: appError.code,
        error: describe(appError.cause ?? err),
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
  const parserError = err as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return new AppError('INVALID_REQUEST', 'Malformed JSON body');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body exceeds the 10 MB limit');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
    case 'request.aborted':
      return new AppError('INVALID_REQUEST', 'Request aborted');
  }
  return new AppError('UNKNOWN_ERROR', GENERIC_ERROR_MSG, { cause: err });
}

function describe(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { value: String(err) };
}
