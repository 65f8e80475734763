import type { Guard } from '@svc/http';

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
  /** Limits of user/check, which needs no credential: per client address, then per email. */
  userCheckRateLimits: Guard[];
}
