import { rateLimitGuard } from '@svc/http';
import { ipAndEmailKey } from './email.js';

const FIFTEEN_MINUTES = 15 * 60_000;

/**
 * Guards of credential endpoints, counted per client IP and email (see ipAndEmailKey).
 * Create them per app instance (each has its own counters).
 */
export function loginRateLimit(name = 'loginRateLimit') {
  return rateLimitGuard({ name, windowMs: FIFTEEN_MINUTES, limit: 10, key: ipAndEmailKey });
}

/** Endpoints that send mail: few per address, so nobody can flood an inbox through us. */
export function mailRateLimit(name = 'mailRateLimit') {
  return rateLimitGuard({ name, windowMs: FIFTEEN_MINUTES, limit: 5, key: ipAndEmailKey });
}

/** Endpoints that check a mailed code (each code also allows only 5 attempts). */
export function codeRateLimit(name = 'codeRateLimit') {
  return rateLimitGuard({ name, windowMs: FIFTEEN_MINUTES, limit: 20, key: ipAndEmailKey });
}
