import type { TokenRevocation } from '@svc/accounts';
import { apiKeyGuard, idTokenGuard, jwtGuard, type IdTokenVerifier, type ServiceJwt } from '@svc/auth';
import type { Guard, Logger } from '@svc/http';
import type { apiKeyRepo } from './modules/api-keys/repo.js';
import type { protocolRateLimits } from './rate-limits.js';
import type { TssGuards } from './kernel/guards.js';

/** The guards of every tss-api route, built once per app (src/app.ts). */
export function createGuards(deps: {
  apiKeys: ReturnType<typeof apiKeyRepo>;
  jwt: ServiceJwt;
  verifier: IdTokenVerifier;
  silentRefreshWindowSeconds: number;
  revoked: TokenRevocation;
  limits: ReturnType<typeof protocolRateLimits>;
  logger: Logger;
}): TssGuards {
  // A signed-out token (POST /tss/v1/user/signout, or replaced by signin_silently) is refused
  // like any invalid token: spec §7's 401 UNAUTHORIZED.
  const isRevoked = (jti: string) => deps.revoked.isRevoked(jti);
  return {
    apiKey: apiKeyGuard((hash) => deps.apiKeys.ownerOf(hash)) as Guard,
    userJwt: jwtGuard('user', deps.jwt, { isRevoked }) as Guard,
    refreshableUserJwt: jwtGuard('user', deps.jwt, { expiredGraceSeconds: deps.silentRefreshWindowSeconds, isRevoked }) as Guard,
    // The reason goes to the debug log (never the token): it tells an operator which check failed.
    idToken: idTokenGuard(deps.verifier, { onRefused: (e) => deps.logger.debug('id token refused', { reason: e.reason }) }) as Guard,
    triplesRateLimit: deps.limits.triplesStart as Guard,
    keygenRateLimit: deps.limits.keygen as Guard,
    userCheckRateLimits: [deps.limits.userCheckPerAddress as Guard, deps.limits.userCheckPerEmail as Guard],
  };
}
