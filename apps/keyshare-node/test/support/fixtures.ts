import { createIdTokenVerifier } from '@svc/auth';
import { startOidcIssuer, type LocalOidcIssuer } from '@svc/auth/testing';
import { toHex } from '@svc/crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { VerifyIdToken } from '../../src/kernel/id-token.js';

/** A real local OIDC issuer (configured as the Google provider) and the verifier of its tokens. */
export async function startLogin(): Promise<{ issuer: LocalOidcIssuer; verifyIdToken: VerifyIdToken }> {
  const issuer = await startOidcIssuer();
  const verifier = createIdTokenVerifier({ google: { issuer: issuer.issuer, audience: issuer.audience, jwksUri: issuer.jwksUri } });
  return { issuer, verifyIdToken: (token) => verifier.verifyIdToken(token) };
}

/** A random Ed25519 wallet public key (hex) that is a valid point. */
export function randomEd25519Key(): string {
  return toHex(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
}
