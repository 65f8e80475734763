import { field } from '../fields.js';
import { defineContract } from '../route-contract.js';
import { tssApiPaths } from '../paths.js';

const emailRule = field.email({ max: 254 });

export const emailRequestCode = defineContract({
  ...tssApiPaths.emailRequestCode,
  summary: 'Email login, step 1: mail a one-time code to the address',
  description:
    'Sends a 6-digit code by email. It expires after EMAIL_VERIFICATION_EXPIRATION_MINUTES (default 5) and only the latest code ' +
    'of an address works. Rate limited per address and per client.',
  tags: ['user'],
  // Per address (mail bombing one inbox, guessing one code) and per client (spraying many).
  auth: ['emailLoginIpRateLimit', 'emailCodeRateLimit'],
  body: { email: emailRule },
  errors: ['RATE_LIMITED'],
  response: { type: 'object', required: ['expires_at'], properties: { expires_at: { type: 'string', format: 'date-time' } } },
});

export const emailVerifyCode = defineContract({
  ...tssApiPaths.emailVerifyCode,
  summary: 'Email login, step 2: trade the code for an ID token',
  description:
    'Returns an ID token (JWT signed by the service, issuer `<PUBLIC_URL>/tss/v1`, keys at /tss/v1/.well-known/jwks.json) to use as ' +
    '`Authorization: Bearer <id_token>` on user/signin, keygen and the key share nodes. A code works once; after ' +
    'EMAIL_CODE_MAX_ATTEMPTS (default 5) wrong tries it is dead.',
  tags: ['user'],
  auth: ['emailLoginIpRateLimit', 'emailVerifyRateLimit'],
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
});

/** Answered outside the envelope (no `response`): a plain JWKS. */
export const emailJwks = defineContract({
  ...tssApiPaths.emailJwks,
  summary: 'Public keys of the email login ID tokens (plain JWKS, not the envelope)',
  tags: ['user'],
});

/** Answered outside the envelope (no `response`): a plain discovery document. */
export const emailOpenidConfiguration = defineContract({
  ...tssApiPaths.emailOpenidConfiguration,
  summary: 'OIDC discovery document of the email login issuer (plain JSON, not the envelope)',
  tags: ['user'],
});
