import type { VerifiedIdentity } from '@svc/auth';

/**
 * What the node needs from ID-token verification: @svc/auth's createIdTokenVerifier (the same
 * providers as tss-api), injected through createApp so tests use a local issuer. It throws
 * when the token is invalid, expired, or from a provider that is not configured.
 */
export type VerifyIdToken = (token: string) => Promise<VerifiedIdentity>;
