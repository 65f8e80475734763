import type { Request, Response } from 'express';
import { AppError } from '@svc/envelope';
import { bearerToken } from '../bearer.js';
import { IdTokenError } from './id-token-error.js';
import type { IdTokenVerifier, VerifiedIdentity } from './types.js';

export interface IdTokenGuardOptions {
  /** Called with each refusal (reason only, never the token) for logs and metrics. */
  onRefused?: (error: IdTokenError) => void;
}

/**
 * A route guard requiring `Authorization: Bearer <ID token>` from a configured login
 * provider. Every refusal is spec §7's 401 UNAUTHORIZED `Unauthorized`, a token of a provider this
 * deployment does not enable included (the reason is logged through onRefused, not answered).
 * The identity lands in `res.locals.identity`.
 */
export function idTokenGuard(verifier: IdTokenVerifier, options: IdTokenGuardOptions = {}) {
  return {
    name: 'idToken',
    scheme: {
      type: 'http',
      scheme: 'bearer',
      description:
        'ID token of a login provider: a JWT (Google, Apple, the email login of /tss/v1/user/email, other OIDC issuers; chosen by `iss`), ' +
        'or `x:<access token>`, `discord:<access token>`, `telegram:<base64url of the login widget JSON>` (docs/auth.md)',
    },
    middleware: async (req: Request, res: Response, next: (err?: unknown) => void) => {
      const token = bearerToken(req);
      if (!token) throw new AppError('UNAUTHORIZED', 'Unauthorized');
      try {
        res.locals.identity = await verifier.verifyIdToken(token);
      } catch (error) {
        if (!(error instanceof IdTokenError)) throw error;
        options.onRefused?.(error);
        throw new AppError('UNAUTHORIZED', 'Unauthorized');
      }
      next();
    },
  };
}

/** The identity an ID token guard left on the response. */
export function verifiedIdentity(res: Response): VerifiedIdentity {
  const identity = res.locals.identity as VerifiedIdentity | undefined;
  if (!identity) throw new AppError('UNAUTHORIZED', 'Unauthorized');
  return identity;
}
