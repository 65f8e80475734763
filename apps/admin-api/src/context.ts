import type { TokenRevocation } from '@svc/accounts';
import type { ServiceJwt } from '@svc/auth';
import type { PrismaClient } from '@svc/db';
import type { Guard } from '@svc/http';

/** What the feature modules of admin-api are built from (one per app instance). */
export interface AdminContext {
  db: PrismaClient;
  jwt: ServiceJwt;
  revocation: TokenRevocation;
  /** Bearer admin JWT, not revoked (every route except user/login). */
  adminAuth: Guard;
}

export const API_PREFIX = '/svc_admin/v1';
