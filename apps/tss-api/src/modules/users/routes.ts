import { authClaims, verifiedIdentity } from '@svc/auth';
import type { AuthType } from '@svc/db';
import { defineRoute, field, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { UsersService } from './service.js';
import { SIGN_IN_RESULT_SCHEMA } from '../../kernel/sign-in-result.js';

const AUTH_TYPES = ['EMAIL', 'GOOGLE', 'APPLE', 'X', 'DISCORD', 'TELEGRAM', 'OIDC'];

const CHECK_SCHEMA = {
  type: 'object',
  required: ['exists', 'keyshare_node_meta', 'needs_reshare', 'active_nodes_below_threshold'],
  properties: {
    exists: { type: 'boolean' },
    keyshare_node_meta: {
      type: 'object',
      properties: {
        threshold: { type: 'integer' },
        nodes: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              endpoint: { type: 'string', format: 'uri' },
              wallet_status: { type: 'string', enum: ['ACTIVE', 'UNRECOVERABLE_DATA_LOSS', 'NOT_REGISTERED'] },
            },
          },
        },
      },
    },
    needs_reshare: { type: 'boolean' },
    reshare_reasons: { type: 'array', items: { type: 'string', enum: ['UNRECOVERABLE_NODE_DATA_LOSS', 'MISSING_NODE_BACKUP'] } },
    active_nodes_below_threshold: { type: 'boolean' },
  },
};

export function userRoutes(service: UsersService, guards: TssGuards): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/user/signin',
      summary: 'Sign in with an ID token of a login provider',
      description: 'Bearer ID token (see the idToken scheme) and the app\u2019s X-API-Key; no body. Returns the sign-in result with a service JWT.',
      tags: ['user'],
      guards: [guards.apiKey, guards.idToken],
      errors: ['INVALID_API_KEY', 'UNAUTHORIZED', 'USER_NOT_FOUND', 'WALLET_NOT_FOUND', 'UNKNOWN_ERROR'],
      response: SIGN_IN_RESULT_SCHEMA,
      handler: (_req, res) => service.signin(verifiedIdentity(res)),
    }),
    defineRoute({
      method: 'post',
      path: '/tss/v1/user/signin_silently',
      summary: 'Refresh a service JWT without a new login',
      description:
        'Header `Authorization: Bearer <service JWT>` (kind user) and X-API-Key; no body. A valid token, or one expired less than ' +
        'SIGNIN_SILENTLY_WINDOW ago (default 7 days), gets the sign-in result with a fresh token, as long as the user and a wallet ' +
        'still exist. The old token is revoked as the new one is issued: it refreshes once, and a signed-out token not at all. ' +
        'Older, invalid, signed-out or already refreshed tokens: 401; admin or customer tokens: 403.',
      tags: ['user'],
      guards: [guards.apiKey, guards.refreshableUserJwt],
      errors: ['INVALID_API_KEY', 'FORBIDDEN', 'USER_NOT_FOUND', 'WALLET_NOT_FOUND'],
      response: SIGN_IN_RESULT_SCHEMA,
      handler: (_req, res) => service.signinSilently(authClaims(res)),
    }),
    defineRoute({
      method: 'post',
      path: '/tss/v1/user/signout',
      summary: 'Sign out: revoke this service JWT',
      description:
        'Header `Authorization: Bearer <service JWT>` (kind user) and X-API-Key; no body. The token\u2019s `jti` is revoked in the ' +
        'database, so every replica refuses it from now on (401 UNAUTHORIZED, as any invalid token) and signin_silently will not ' +
        'refresh it. Signing out twice: the second call is 401 (the token is already refused).',
      tags: ['user'],
      guards: [guards.apiKey, guards.userJwt],
      errors: ['INVALID_API_KEY', 'FORBIDDEN'],
      response: { type: 'object', required: ['message'], properties: { message: { type: 'string', const: 'Signed out' } } },
      handler: (_req, res) => service.signout(authClaims(res)),
    }),
    defineRoute({
      method: 'post',
      path: '/tss/v1/user/check',
      summary: 'Whether an account exists for an email, and the state of its key share nodes',
      tags: ['user'],
      body: {
        // Spec §7: an empty email is no email.
        email: field.string({ max: 320, typeMessage: 'email is required' }).check<string>((v) => v !== '', 'email is required'),
        auth_type: field.oneOf(AUTH_TYPES).optional(),
      },
      errors: ['UNKNOWN_ERROR'],
      response: CHECK_SCHEMA,
      handler: (req) => service.check(req.body.email as string, req.body.auth_type as AuthType | undefined),
    }),
  ];
}
