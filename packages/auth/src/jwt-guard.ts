import type { Request, Response } from 'express';
import { AppError } from '@svc/envelope';
import { bearerToken } from './bearer.js';
import type { ServiceClaims, ServiceJwt, TokenKind } from './service-jwt.js';

export interface JwtGuardOptions {
  /** Returns true when the token id was revoked (e.g. admin logout). */
  isRevoked?: (jti: string) => Promise<boolean>;
  /** Also accept a token that expired less than this many seconds ago (signin_silently's refresh window). */
  expiredGraceSeconds?: number;
}

const GUARD_NAME: Record<TokenKind, string> = { user: 'userJwt', admin: 'adminJwt', customer: 'customerJwt' };

/**
 * A route guard (see @svc/http `Guard`) requiring a service JWT of one kind. Missing,
 * malformed, expired or revoked -> 401 UNAUTHORIZED; a valid token of another kind ->
 * 403 FORBIDDEN (spec §5 rule 4). The claims land in `res.locals.auth`.
 */
export function jwtGuard(kind: TokenKind, jwt: ServiceJwt, options: JwtGuardOptions = {}) {
  return {
    name: GUARD_NAME[kind],
    scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: `Service JWT of kind "${kind}"` },
    middleware: async (req: Request, res: Response, next: (err?: unknown) => void) => {
      const token = bearerToken(req);
      if (!token) throw new AppError('UNAUTHORIZED', 'Unauthorized');
      // Expired tokens verify only within the grace (0 unless given): verify() refuses older ones.
      const result = jwt.verify(kind, token, options.expiredGraceSeconds ?? 0);
      if (!result.ok) {
        if (result.reason === 'wrong_audience') throw new AppError('FORBIDDEN', 'Forbidden');
        throw new AppError('UNAUTHORIZED', 'Unauthorized');
      }
      if (options.isRevoked && (await options.isRevoked(result.claims.jti))) {
        throw new AppError('UNAUTHORIZED', 'Unauthorized');
      }
      res.locals.auth = result.claims;
      next();
    },
  };
}

/** The verified claims a JWT guard left on the response. */
export function authClaims(res: Response): ServiceClaims {
  const claims = res.locals.auth as ServiceClaims | undefined;
  if (!claims) throw new AppError('UNAUTHORIZED', 'Unauthorized');
  return claims;
}
