import type { TokenRevocation } from '@svc/accounts';
import { apiKeyGuard, idTokenGuard, jwtGuard, type IdTokenVerifier, type ServiceJwt } from '@svc/auth';
import type { Guard, Logger } from '@svc/http';
import type { apiKeyRepo } from './modules/api-keys/repo.js';
import type { protocolRateLimits } from './rate-limits.js';

/** The credentials tss-api routes ask for (docs/api/tss-ed25519.md, "Authentication"). */
export interface TssGuards {
  /** X-API-Key of the app embedding the wallet. */
  apiKey: Guard;
  /** Service JWT of kind "user" (from sign-in or keygen), not signed out. */
  userJwt: Guard;
  /** The same, or one expired less than SIGNIN_SILENTLY_WINDOW ago (signin_silently). */
  refreshableUserJwt: Guard;
  /** ID token of a login provider. */
  idToken: Guard;
  /** Per-user limit of new triple generation runs (after userJwt). */
  triplesRateLimit: Guard;
  /** Per-identity limit of keygen calls (after idToken). */
  keygenRateLimit: Guard;
}

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
  };
}
