import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

/**
 * The three kinds of token the service issues. Each has its own audience, so a token of
 * one kind is refused wherever another kind is required (ARCHITECTURE.md invariant 5).
 */
export type TokenKind = 'user' | 'admin' | 'customer';

export const TOKEN_AUDIENCE: Record<TokenKind, string> = {
  user: 'svc:user',
  admin: 'svc:admin',
  customer: 'svc:customer',
};

export const SERVICE_ISSUER = 'svc-tss-wallet';

export interface ServiceClaims {
  /** Subject: user id, admin id or customer dashboard user id. */
  sub: string;
  email?: string;
  /** Token id, for revocation (admin logout). */
  jti: string;
  aud: string;
  iss: string;
  iat: number;
  exp: number;
  /** Extra claims per kind, e.g. `customer_id` on customer tokens, `wallet_id` on user tokens. */
  [claim: string]: unknown;
}

export type VerifyResult =
  | { ok: true; claims: ServiceClaims; expired: boolean }
  | { ok: false; reason: 'invalid' | 'expired' | 'wrong_audience' };

export interface ServiceJwtOptions {
  secret: string;
  /** Lifetime as seconds or a jsonwebtoken span such as "1h" (JWT_EXPIRES_IN). */
  expiresIn: string | number;
}

/** Issues and verifies the service's HS256 tokens; `alg` is pinned so none/RS tokens fail. */
export class ServiceJwt {
  /**
   * The secret as a KeyObject, made once: given a string, jsonwebtoken first tries to parse it as
   * a PEM public key and builds a new key object on every call, which was ~12% of the CPU of an
   * authenticated request. The HMAC key bytes are the same (the secret's UTF-8).
   */
  private readonly key: KeyObject;

  constructor(private readonly options: ServiceJwtOptions) {
    if (options.secret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    this.key = createSecretKey(Buffer.from(options.secret, 'utf8'));
  }

  sign(kind: TokenKind, subject: string, claims: Record<string, unknown> = {}): { token: string; claims: ServiceClaims } {
    const token = jwt.sign(claims, this.key, {
      algorithm: 'HS256',
      audience: TOKEN_AUDIENCE[kind],
      issuer: SERVICE_ISSUER,
      subject,
      jwtid: randomUUID(),
      expiresIn: this.options.expiresIn as jwt.SignOptions['expiresIn'],
    });
    return { token, claims: jwt.decode(token) as ServiceClaims };
  }

  /**
   * Verifies signature, issuer and audience. An expired token is reported as expired, or
   * accepted with `expired: true` when it expired less than `expiredGraceSeconds` ago
   * (the bounded refresh window of signin_silently).
   */
  verify(kind: TokenKind, token: string, expiredGraceSeconds = 0): VerifyResult {
    let claims: ServiceClaims;
    try {
      claims = jwt.verify(token, this.key, {
        algorithms: ['HS256'],
        issuer: SERVICE_ISSUER,
        ignoreExpiration: true,
      }) as ServiceClaims;
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number' || typeof claims.jti !== 'string') {
      return { ok: false, reason: 'invalid' };
    }
    if (claims.aud !== TOKEN_AUDIENCE[kind]) return { ok: false, reason: 'wrong_audience' };
    const now = Math.floor(Date.now() / 1000);
    if (claims.exp > now) return { ok: true, claims, expired: false };
    if (claims.exp + expiredGraceSeconds > now) return { ok: true, claims, expired: true };
    return { ok: false, reason: 'expired' };
  }
}
