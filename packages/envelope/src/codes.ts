/**
 * Every error code the service answers with, and its HTTP status: the one place where a
 * code is mapped to a status. The first rows are spec §7 verbatim; the rest fill the codes
 * the spec marks "not shown" (documented with the routes that answer them: docs/api/*.md and each app's /docs).
 */
export const ERROR_STATUS = {
  // spec §7
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  USER_NOT_FOUND: 404,
  WALLET_NOT_FOUND: 404,
  UNKNOWN_ERROR: 500,
  // transport and routing
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  NOT_READY: 503,
  DATABASE_UNAVAILABLE: 503,
  UPSTREAM_UNAVAILABLE: 503,
  BAD_GATEWAY: 502,
  UPSTREAM_TIMEOUT: 504,
  // sign-in, accounts
  INVALID_CREDENTIALS: 401,
  ID_TOKEN_REPLAYED: 401,
  INVALID_API_KEY: 401,
  ORIGIN_NOT_ALLOWED: 403,
  EMAIL_NOT_VERIFIED: 403,
  INVALID_CODE: 400,
  CODE_EXPIRED: 400,
  TOO_MANY_ATTEMPTS: 429,
  EMAIL_ALREADY_EXISTS: 409,
  CUSTOMER_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  // wallets and signing
  WALLET_ALREADY_EXISTS: 409,
  KEY_PACKAGE_MISMATCH: 400,
  SESSION_NOT_FOUND: 404,
  SESSION_ALREADY_EXISTS: 409,
  SESSION_EXPIRED: 410,
  SESSION_NOT_ACTIVE: 409,
  SESSION_STATE_CONSUMED: 409,
  INVALID_PROTOCOL_MESSAGE: 400,
  PRESIGNATURE_POOL_FULL: 409,
  PRESIGNATURE_NOT_AVAILABLE: 409,
  PROTOCOL_SESSION_REUSED: 409,
  SIGNING_DISABLED: 503,
  TOO_MANY_OPEN_SESSIONS: 429,
  // key share nodes
  KS_NODE_NOT_FOUND: 404,
  KS_NODE_ALREADY_EXISTS: 409,
  KS_NODE_ACTIVE: 409,
  KEY_SHARE_NOT_FOUND: 404,
  KEY_SHARE_ALREADY_EXISTS: 409,
  ID_TOKEN_NOT_COMMITTED: 401,
  ID_TOKEN_COMMITTED_TO_OTHER_KEY: 401,
  INVALID_REQUEST_SIGNATURE: 401,
  REQUEST_REPLAYED: 401,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}
