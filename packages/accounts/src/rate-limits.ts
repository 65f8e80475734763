import { rateLimitStore, type PrismaClient } from '@svc/db';
import { rateLimitGuard } from '@svc/http';
import { ipAndEmailKey } from './email.js';

const FIFTEEN_MINUTES = 15 * 60_000;

/*
 * Guards of credential endpoints, counted per client IP and email (see ipAndEmailKey) in
 * PostgreSQL (@svc/db rateLimitStore): every replica of the app counts against one limit.
 */

export function loginRateLimit(db: PrismaClient, name = 'loginRateLimit') {
  return rateLimitGuard({ name, windowMs: FIFTEEN_MINUTES, limit: 10, key: ipAndEmailKey, store: rateLimitStore(db, name) });
}

/** Endpoints that send mail: few per address, so nobody can flood an inbox through us. */
export function mailRateLimit(db: PrismaClient, name = 'mailRateLimit') {
  return rateLimitGuard({ name, windowMs: FIFTEEN_MINUTES, limit: 5, key: ipAndEmailKey, store: rateLimitStore(db, name) });
}

/** Endpoints that check a mailed code (each code also allows only 5 attempts). */
export function codeRateLimit(db: PrismaClient, name = 'codeRateLimit') {
  return rateLimitGuard({ name, windowMs: FIFTEEN_MINUTES, limit: 20, key: ipAndEmailKey, store: rateLimitStore(db, name) });
}
