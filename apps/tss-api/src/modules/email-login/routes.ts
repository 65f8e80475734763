import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { defineRoute, field, type Guard, type RateLimitOptions, type RouteDef } from '@svc/http';
import type { EmailIdTokenIssuer } from './id-token-issuer.js';
import { normalizeEmail, type EmailLoginService } from './service.js';

export interface EmailLoginRouteOptions {
  rateLimit: { windowMs: number; perEmail: number; perIp: number };
  /** Builds a limit counted where every replica counts (src/rate-limits.ts sharedRateLimit). */
  sharedLimit: (options: Omit<RateLimitOptions, 'store'>) => Guard;
}

const emailRule = field.email({ max: 254 });

const emailKey = (req: Request) => {
  const email: unknown = (req.body as Record<string, unknown> | undefined)?.email;
  // Hashed: stored in PostgreSQL before validation, so the raw value may hold NUL or a lone surrogate.
  return `email:${typeof email === 'string' ? createHash('sha256').update(normalizeEmail(email)).digest('hex') : ''}`;
};

export function emailLoginRoutes(service: EmailLoginService, issuer: EmailIdTokenIssuer, options: EmailLoginRouteOptions): RouteDef[] {
  const { windowMs, perEmail, perIp } = options.rateLimit;
  // Per address (mail bombing one inbox, guessing one code) and per client (spraying many).
  const perEmailLimit = options.sharedLimit({ name: 'emailCodeRateLimit', windowMs, limit: perEmail, key: emailKey });
  const perIpLimit = options.sharedLimit({ name: 'emailLoginIpRateLimit', windowMs, limit: perIp });
  const verifyPerEmail = options.sharedLimit({ name: 'emailVerifyRateLimit', windowMs, limit: perEmail * 4, key: emailKey });
  const discovery = {
    issuer: issuer.issuer,
    jwks_uri: `${issuer.issuer}/.well-known/jwks.json`,
    id_token_signing_alg_values_supported: [...new Set(issuer.jwks.keys.map((k) => k.alg))],
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    claims_supported: ['sub', 'email', 'email_verified', 'iss', 'aud', 'exp', 'iat', 'jti'],
  };
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/user/email/request_code',
      summary: 'Email login, step 1: mail a one-time code to the address',
      description:
        'Sends a 6-digit code by email. It expires after EMAIL_VERIFICATION_EXPIRATION_MINUTES (default 5) and only the latest code ' +
        'of an address works. Rate limited per address and per client.',
      tags: ['user'],
      guards: [perIpLimit, perEmailLimit],
      body: { email: emailRule },
      errors: ['RATE_LIMITED'],
      response: { type: 'object', required: ['expires_at'], properties: { expires_at: { type: 'string', format: 'date-time' } } },
      handler: (req) => service.requestCode(req.body.email as string),
    }),
    defineRoute({
      method: 'post',
      path: '/tss/v1/user/email/verify_code',
      summary: 'Email login, step 2: trade the code for an ID token',
      description:
        'Returns an ID token (JWT signed by the service, issuer `<PUBLIC_URL>/tss/v1`, keys at /tss/v1/.well-known/jwks.json) to use as ' +
        '`Authorization: Bearer <id_token>` on user/signin, keygen and the key share nodes. A code works once; after ' +
        'EMAIL_CODE_MAX_ATTEMPTS (default 5) wrong tries it is dead.',
      tags: ['user'],
      guards: [perIpLimit, verifyPerEmail],
      body: {
        email: emailRule,
        code: field.string({ pattern: /^[0-9]{6}$/, message: 'code must be 6 digits' }),
      },
      errors: ['INVALID_CODE', 'CODE_EXPIRED', 'TOO_MANY_ATTEMPTS', 'RATE_LIMITED'],
      response: {
        type: 'object',
        required: ['id_token', 'expires_at'],
        properties: { id_token: { type: 'string' }, expires_at: { type: 'string', format: 'date-time' } },
      },
      handler: (req) => service.verifyCode(req.body.email as string, req.body.code as string),
    }),
    defineRoute({
      method: 'get',
      path: '/tss/v1/.well-known/jwks.json',
      summary: 'Public keys of the email login ID tokens (plain JWKS, not the envelope)',
      tags: ['user'],
      handler: (_req, res) => {
        res.set('cache-control', 'public, max-age=300').json(issuer.jwks);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/tss/v1/.well-known/openid-configuration',
      summary: 'OIDC discovery document of the email login issuer (plain JSON, not the envelope)',
      tags: ['user'],
      handler: (_req, res) => {
        res.set('cache-control', 'public, max-age=300').json(discovery);
      },
    }),
  ];
}
