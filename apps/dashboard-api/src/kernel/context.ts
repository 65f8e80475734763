import type { RateLimitStores } from '@svc/accounts';
import type { Guard } from '@svc/http';

/** What the route modules of dashboard-api get beside their service (one per app instance, built in app.ts). */
export interface DashboardContext {
  /** Bearer customer JWT, not revoked. */
  customerAuth: Guard;
  /** The counter stores of rate limits (PostgreSQL, shared by the replicas). */
  rateLimits: RateLimitStores;
}

export const API_PREFIX = '/customer_dashboard/v1';
