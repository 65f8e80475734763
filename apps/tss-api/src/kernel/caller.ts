import { apiKeyOwner, authClaims } from '@svc/auth';
import type { Response } from 'express';

/**
 * Who drives a signing step: the user of the service JWT (never an id from the body, invariant 2
 * of docs/architecture.md) and the app whose API key came with it, recorded on the session.
 */
export interface Caller {
  userId: string;
  customerId: string | null;
  apiKeyId: string | null;
}

/** The caller of a route guarded by `apiKey` and `userJwt` (both guards have run). */
export function callerOf(res: Response): Caller {
  const key = apiKeyOwner(res);
  return { userId: authClaims(res).sub, customerId: key.customerId, apiKeyId: key.apiKeyId };
}
