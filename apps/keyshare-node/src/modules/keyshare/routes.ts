import { defineRoute, field, type Guard, type RouteDef } from '@svc/http';
import { callerOf } from '../../signed-request/guard.js';
import { MAX_SHARE_BYTES, walletFields } from './fields.js';
import type { KeyShareService } from './service.js';

const SIGNED_ERRORS = ['UNAUTHORIZED', 'ID_TOKEN_NOT_COMMITTED', 'INVALID_REQUEST_SIGNATURE', 'REQUEST_REPLAYED', 'RATE_LIMITED'] as const;

export function keyshareRoutes(service: KeyShareService, guards: { signed: Guard; userRateLimit: Guard; checkRateLimit: Guard }): RouteDef[] {
  const userGuards = [guards.userRateLimit, guards.signed];
  return [
    defineRoute({
      method: 'post',
      path: '/keyshare/v1/register',
      summary: "Store the caller's share of a wallet (encrypted at rest)",
      description:
        "The caller is the verified ID token's identity. A share exists already -> 409 KEY_SHARE_ALREADY_EXISTS, unless " +
        '`reshare` is true and the caller owns it (then it is replaced). The share must be at this node\'s x-coordinate ' +
        '(its last byte; see GET /keyshare/v1/info).',
      tags: ['keyshare'],
      guards: userGuards,
      body: {
        ...walletFields,
        share: field.string({ pattern: new RegExp(`^(?:[0-9a-f]{2}){2,${MAX_SHARE_BYTES}}$`), message: `share must be 2 to ${MAX_SHARE_BYTES} bytes in lowercase hex` }),
        reshare: field.boolean().optional(),
      },
      errors: ['INVALID_REQUEST', 'KEY_SHARE_ALREADY_EXISTS', ...SIGNED_ERRORS],
      response: { type: 'null' },
      handler: (req, res) => service.register(callerOf(res), { curve: req.body.curve_type, publicKey: req.body.public_key }, req.body.share, req.body.reshare === true),
    }),
    defineRoute({
      method: 'post',
      path: '/keyshare/v1/keyshare',
      summary: "The caller's share of a wallet",
      description: 'Returned only to its owner (the identity of the verified ID token); anyone else gets 404 KEY_SHARE_NOT_FOUND.',
      tags: ['keyshare'],
      guards: userGuards,
      body: walletFields,
      errors: ['INVALID_REQUEST', 'KEY_SHARE_NOT_FOUND', ...SIGNED_ERRORS],
      response: {
        type: 'object',
        required: ['share_id', 'share'],
        properties: { share_id: { type: 'string', format: 'uuid' }, share: { type: 'string', description: 'hex' } },
      },
      handler: (req, res) => service.fetch(callerOf(res), { curve: req.body.curve_type, publicKey: req.body.public_key }),
    }),
    defineRoute({
      method: 'post',
      path: '/keyshare/v1/check',
      summary: 'Whether this node holds a share for a wallet public key',
      description:
        'Public (rate limited): the main API asks it for user/check. It reveals only whether a backup exists for a public ' +
        'key, never whose it is or the share (see docs/keyshare.md, "Check endpoint").',
      tags: ['keyshare'],
      guards: [guards.checkRateLimit],
      body: walletFields,
      errors: ['INVALID_REQUEST', 'RATE_LIMITED'],
      response: { type: 'object', required: ['exists'], properties: { exists: { type: 'boolean' } } },
      handler: (req) => service.exists({ curve: req.body.curve_type, publicKey: req.body.public_key }),
    }),
  ];
}
