import { apiKeyGuard, idTokenGuard, jwtGuard, type IdTokenVerifier, type ServiceJwt } from '@svc/auth';
import type { Guard, Logger } from '@svc/http';
import type { apiKeyRepo } from './modules/api-keys/repo.js';

/** The credentials tss-api routes ask for (docs/api/tss-ed25519.md, "Authentication"). */
export interface TssGuards {
  /** X-API-Key of the app embedding the wallet. */
  apiKey: Guard;
  /** Service JWT of kind "user" (from sign-in or keygen). */
  userJwt: Guard;
  /** The same, or one expired less than SIGNIN_SILENTLY_WINDOW ago (signin_silently). */
  refreshableUserJwt: Guard;
  /** ID token of a login provider. */
  idToken: Guard;
}

export function createGuards(deps: {
  apiKeys: ReturnType<typeof apiKeyRepo>;
  jwt: ServiceJwt;
  verifier: IdTokenVerifier;
  silentRefreshWindowSeconds: number;
  logger: Logger;
}): TssGuards {
  return {
    apiKey: apiKeyGuard((hash) => deps.apiKeys.ownerOf(hash)) as Guard,
    userJwt: jwtGuard('user', deps.jwt) as Guard,
    refreshableUserJwt: jwtGuard('user', deps.jwt, { expiredGraceSeconds: deps.silentRefreshWindowSeconds }) as Guard,
    // The reason goes to the debug log (never the token): it tells an operator which check failed.
    idToken: idTokenGuard(deps.verifier, { onRefused: (e) => deps.logger.debug('id token refused', { reason: e.reason }) }) as Guard,
  };
}
