import { createHash } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JSONWebKeySet, type JWK, type CryptoKey } from 'jose';

/** The service's own login provider: signs ID tokens for verified email addresses. */
export interface EmailIdTokenIssuer {
  issuer: string;
  audience: string;
  /** Public keys only, as published at /tss/v1/.well-known/jwks.json. */
  jwks: JSONWebKeySet;
  issue(email: string): Promise<{ idToken: string; expiresAt: Date }>;
}

export interface EmailIdTokenIssuerOptions {
  /** Private JWK (EC P-256 -> ES256, OKP Ed25519 -> EdDSA); omitted -> an ephemeral ES256 key. */
  privateJwk?: Record<string, unknown>;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

function algOf(jwk: JWK): 'ES256' | 'EdDSA' {
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  throw new Error('EMAIL_ID_TOKEN_PRIVATE_KEY must be an EC P-256 or OKP Ed25519 JWK');
}

/** A fresh private JWK for EMAIL_ID_TOKEN_PRIVATE_KEY (what `pnpm start` and tests use). */
export async function generateEmailIdTokenKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return exportJWK(privateKey);
}

export async function createEmailIdTokenIssuer(options: EmailIdTokenIssuerOptions): Promise<EmailIdTokenIssuer> {
  const privateJwk = (options.privateJwk ?? (await generateEmailIdTokenKey())) as JWK;
  const alg = algOf(privateJwk);
  const key = (await importJWK(privateJwk, alg)) as CryptoKey;
  const { d: _secret, ...publicPart } = privateJwk;
  // kid = thumbprint-like digest of the public key, so a rotated key gets a new kid.
  const kid = createHash('sha256').update(JSON.stringify([publicPart.kty, publicPart.crv, publicPart.x, publicPart.y])).digest('base64url').slice(0, 16);
  const publicJwk: JWK = { kty: publicPart.kty, crv: publicPart.crv, x: publicPart.x, ...(publicPart.y ? { y: publicPart.y } : {}), kid, alg, use: 'sig' };
  return {
    issuer: options.issuer,
    audience: options.audience,
    jwks: { keys: [publicJwk] },
    async issue(email) {
      const now = Math.floor(Date.now() / 1000);
      const exp = now + options.ttlSeconds;
      const idToken = await new SignJWT({ email, email_verified: true })
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(email)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .setJti(crypto.randomUUID())
        .sign(key);
      return { idToken, expiresAt: new Date(exp * 1000) };
    },
  };
}
