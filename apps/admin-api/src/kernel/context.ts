import type { RateLimitStores } from '@svc/accounts';
import type { Guard } from '@svc/http';

/** What the route modules of admin-api get beside their service (one per app instance, built in app.ts). */
export interface AdminContext {
  /** Bearer admin JWT, not revoked (every route except user/login). */
  adminAuth: Guard;
  /** The counter stores of rate limits (PostgreSQL, shared by the replicas). */
  rateLimits: RateLimitStores;
}

export const API_PREFIX = '/svc_admin/v1';
