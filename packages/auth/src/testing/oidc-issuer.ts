import { createHmac, randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, type CryptoKey } from 'jose';
import { sendJson, startLocalServer } from './local-server.js';

export interface IssueOptions {
  /** Lifetime in seconds (negative: already expired). Default 600. */
  expiresIn?: number;
  issuer?: string;
  audience?: string;
  /** Sign with a key that is not in the published JWKS. */
  foreignKey?: boolean;
  /** Extra protected-header fields (e.g. a forged kid). */
  header?: Record<string, unknown>;
}

export interface LocalOidcIssuer {
  /** `iss` of the tokens, also the base URL of the server. */
  issuer: string;
  jwksUri: string;
  /** The default audience (client id) of issued tokens. */
  audience: string;
  alg: 'RS256' | 'ES256';
  /** A signed ID token; default claims: sub, email, email_verified true. */
  issue(claims?: JWTPayload, options?: IssueOptions): Promise<string>;
  /** An `alg: none` token with the same claims (must always be refused). */
  unsigned(claims?: JWTPayload): string;
  /** An HS256 token keyed with the issuer's public key PEM: the classic RS/HS confusion forgery. */
  hmacWithPublicKey(claims?: JWTPayload): Promise<string>;
  /** How many times the JWKS was fetched (to show verifiers cache it). */
  readonly jwksRequests: number;
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A real OIDC issuer on loopback: publishes /.well-known/openid-configuration and its JWKS
 * over HTTP and mints ID tokens signed with its own key pair, so verifiers run the same code
 * path as against Google or Apple.
 */
export async function startOidcIssuer(options: { alg?: 'RS256' | 'ES256'; audience?: string } = {}): Promise<LocalOidcIssuer> {
  const alg = options.alg ?? 'RS256';
  const audience = options.audience ?? 'test-client-id';
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const foreign = await generateKeyPair(alg);
  const kid = `k-${Math.random().toString(36).slice(2, 10)}`;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  let jwksRequests = 0;
  let issuer = '';

  const server = await startLocalServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      return sendJson(res, 200, {
        issuer,
        jwks_uri: `${issuer}/jwks.json`,
        id_token_signing_alg_values_supported: [alg],
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
      });
    }
    if (req.url === '/jwks.json') {
      jwksRequests++;
      return sendJson(res, 200, { keys: [jwk] });
    }
    sendJson(res, 404, { error: 'not_found' });
  });
  issuer = server.baseUrl;

  const defaults = (claims: JWTPayload): JWTPayload => ({
    sub: `user-${Math.random().toString(36).slice(2, 12)}`,
    email: 'user@example.com',
    email_verified: true,
    ...claims,
  });
  const sign = (claims: JWTPayload, o: IssueOptions, key: CryptoKey) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(defaults(claims))
      .setProtectedHeader({ alg, kid, typ: 'JWT', ...o.header })
      .setIssuer(o.issuer ?? issuer)
      .setAudience(o.audience ?? audience)
      .setIssuedAt(now - 5)
      // Providers mint a distinct token per sign-in (jti, nonce); without it two tokens issued in
      // the same second would be byte-identical, and a key share node rightly refuses to bind one
      // token to two session keys.
      .setJti(randomUUID())
      .setExpirationTime(now + (o.expiresIn ?? 600))
      .sign(key);
  };
  const now = () => Math.floor(Date.now() / 1000);
  const standard = (claims: JWTPayload) => ({ iss: issuer, aud: audience, iat: now(), exp: now() + 600, ...defaults(claims) });

  return {
    issuer,
    jwksUri: `${issuer}/jwks.json`,
    audience,
    alg,
    issue: (claims = {}, o = {}) => sign(claims, o, o.foreignKey ? foreign.privateKey : privateKey),
    unsigned: (claims = {}) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(standard(claims))}.`,
    async hmacWithPublicKey(claims = {}) {
      const pem = await exportSPKI(publicKey);
      const body = `${b64({ alg: 'HS256', typ: 'JWT', kid })}.${b64(standard(claims))}`;
      return `${body}.${createHmac('sha256', pem).update(body).digest('base64url')}`;
    },
    get jwksRequests() {
      return jwksRequests;
    },
    close: server.close,
  };
}
