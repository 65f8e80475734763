import { rateLimitStore, type PrismaClient } from '@svc/db';
import { rateLimitGuard } from '@svc/http';
import { ipAndEmailKey } from './email.js';

const FIFTEEN_MINUTES = 15 * 60_000;

/** The counter store of one named limit: what route declarations get instead of the database. */
export type RateLimitStores = (name: string) => ReturnType<typeof rateLimitStore>;

/** Counters in PostgreSQL (@svc/db rateLimitStore): every replica of the app counts against one limit. */
export function rateLimitStores(db: PrismaClient): RateLimitStores {
  return (name) => rateLimitStore(db, name);
}

/* Guards of credential endpoints, counted per client IP and email (see ipAndEmailKey). */

export function loginRateLimit(stores: RateLimitStores, name = 'loginRateLimit') {
  return rateLimitGuard({ name, windowMs: FIFTEEN_MINUTES, limit: 10, key: ipAndEmailKey, store: stores(name) });
}

/** Endpoints that send mail: few per address, so nobody can flood an inbox through us. */
export function mailRateLimit(stores: RateLimitStores, name = 'mailRateLimit') {
  return rateLimitGuard({ name, windowMs: FIFTEEN_MINUTES, limit: 5, key: ipAndEmailKey, store: stores(name) });
}

/** Endpoints that check a mailed code (each code also allows only 5 attempts). */
export function codeRateLimit(stores: RateLimitStores, name = 'codeRateLimit') {
  return rateLimitGuard({ name, windowMs: FIFTEEN_MINUTES, limit: 20, key: ipAndEmailKey, store: stores(name) });
}
