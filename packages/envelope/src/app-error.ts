import { statusOf, type ErrorCode } from './codes.js';

/**
 * The one error type that reaches clients. `msg` is shown to the caller as is, so it must
 * never carry secrets or internals; put those in `cause`, which is only logged.
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly msg: string,
    options?: { cause?: unknown },
  ) {
    super(msg, options);
    this.status = statusOf(code);
  }
}
