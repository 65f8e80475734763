import type { EmailCodes, TokenRevocation } from '@svc/accounts';
import type { ServiceJwt } from '@svc/auth';
import type { PrismaClient } from '@svc/db';
import type { Guard, Logger } from '@svc/http';
import type { Mailer } from '@svc/mailer';

/** What the feature modules of dashboard-api are built from (one per app instance). */
export interface DashboardContext {
  db: PrismaClient;
  jwt: ServiceJwt;
  revocation: TokenRevocation;
  codes: EmailCodes;
  mailer: Mailer;
  logger: Logger;
  /** Bearer customer JWT, not revoked. */
  customerAuth: Guard;
}

export const API_PREFIX = '/customer_dashboard/v1';
