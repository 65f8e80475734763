import type { Request } from 'express';
import { hashedBodyEmail } from '@svc/accounts';
import { tssApi } from '@svc/contract';
import { bindRoute, type Guard, type RateLimitOptions, type RouteDef } from '@svc/http';
import type { EmailIdTokenIssuer } from './id-token-issuer.js';
import type { EmailLoginService } from './service.js';

export interface EmailLoginRouteOptions {
  rateLimit: { windowMs: number; perEmail: number; perIp: number };
  /** Builds a limit counted where every replica counts (src/rate-limits.ts sharedRateLimit). */
  sharedLimit: (options: Omit<RateLimitOptions, 'store'>) => Guard;
}

const emailKey = (req: Request) => `email:${hashedBodyEmail(req)}`;

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
    bindRoute(tssApi.emailRequestCode, {
      guards: [perIpLimit, perEmailLimit],
      handler: (req) => service.requestCode(req.body.email),
    }),
    bindRoute(tssApi.emailVerifyCode, {
      guards: [perIpLimit, verifyPerEmail],
      handler: (req) => service.verifyCode(req.body.email, req.body.code),
    }),
    bindRoute(tssApi.emailJwks, {
      handler: (_req, res) => {
        res.set('cache-control', 'public, max-age=300').json(issuer.jwks);
      },
    }),
    bindRoute(tssApi.emailOpenidConfiguration, {
      handler: (_req, res) => {
        res.set('cache-control', 'public, max-age=300').json(discovery);
      },
    }),
  ];
}
