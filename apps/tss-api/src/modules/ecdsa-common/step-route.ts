import { apiKeyOwner, authClaims } from '@svc/auth';
import type { Response } from 'express';
import type { Caller } from '../sign-ed25519/service.js';

export function callerOf(res: Response): Caller {
  const key = apiKeyOwner(res);
  return { userId: authClaims(res).sub, customerId: key.customerId, apiKeyId: key.apiKeyId };
}
