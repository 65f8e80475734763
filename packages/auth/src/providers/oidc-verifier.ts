import { createHash } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { IdTokenError } from './id-token-error.js';
import type { AuthType, OidcProviderConfig, VerifiedIdentity } from './types.js';

export const DEFAULT_OIDC_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];
const SYMMETRIC = /^HS/i;

/** One OIDC issuer: verifies signature (against its JWKS), iss, aud, exp, alg and email. */
export interface OidcVerifier {
  authType: AuthType;
  issuers: string[];
  verify(token: string): Promise<VerifiedIdentity>;
}

export function createOidcVerifier(authType: AuthType, config: OidcProviderConfig): OidcVerifier {
  const issuers = [config.issuer].flat();
  const algorithms = config.algorithms ?? DEFAULT_OIDC_ALGORITHMS;
  // A shared-secret algorithm would let anyone holding the public JWKS forge tokens.
  if (algorithms.some((a) => SYMMETRIC.test(a) || a.toLowerCase() === 'none')) {
    throw new Error(`OIDC provider ${authType}: only asymmetric algorithms may be allowed`);
  }
  let keys: JWTVerifyGetKey;
  if (config.jwks) keys = createLocalJWKSet(config.jwks);
  else if (config.jwksUri) keys = createRemoteJWKSet(new URL(config.jwksUri), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  else throw new Error(`OIDC provider ${authType}: jwksUri or jwks is required`);

  return {
    authType,
    issuers,
    async verify(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: issuers,
          audience: config.audience,
          algorithms,
          clockTolerance: config.clockToleranceSeconds ?? 30,
          requiredClaims: ['exp', 'sub', 'iss', 'aud'],
        }));
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new IdTokenError('expired', 'ID token expired');
        if (error instanceof errors.JOSEError && error.code === 'ERR_JWKS_TIMEOUT') {
          throw new IdTokenError('provider_unreachable', `JWKS of ${authType} unreachable`);
        }
        throw new IdTokenError('invalid_signature_or_claims', `ID token of ${authType} refused: ${(error as Error).message}`);
      }
      const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
      // Apple sends email_verified as the string "true".
      const verified = payload.email_verified === true || payload.email_verified === 'true';
      if (!email || !verified) throw new IdTokenError('email_not_verified', `ID token of ${authType} has no verified email`);
      const sub = payload.sub as string;
      return {
        authType,
        subject: authType === 'OIDC' ? `${payload.iss}|${sub}` : sub,
        email,
        expiresAt: new Date((payload.exp as number) * 1000),
        tokenId: `${authType}|${payload.iss}|${sub}|${createHash('sha256').update(token.slice(0, token.lastIndexOf('.'))).digest('hex')}`,
      };
    },
  };
}
