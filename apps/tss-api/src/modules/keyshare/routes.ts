import { verifiedIdentity } from '@svc/auth';
import { defineRoute, field, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { KeyshareService } from './service.js';

const PUBLIC_KEY = /^(?:[0-9a-f]{64}|0[23][0-9a-f]{64})$/;
const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * user/reshare (spec 4.1 rules 6-7): after the client re-created lost nodes' shares and
 * registered them, it reports those nodes; tss-api asks each node that it now holds the
 * share, then marks them ACTIVE. Element shape of reshared_key_shares: {name, endpoint}, as
 * listed in user/check's keyshare_node_meta.nodes (docs/keyshare.md).
 */
export function keyshareRoutes(service: KeyshareService, guards: TssGuards): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/user/reshare',
      summary: 'Confirm that key share nodes hold fresh shares after a heal or reshare',
      description:
        'Bearer ID token and X-API-Key. `public_key`: hex public key of one of the user\u2019s wallets (else 400 "Invalid public key"). ' +
        '`reshared_key_shares`: non-empty array of {name, endpoint} of the nodes that now hold a fresh share (names and endpoints ' +
        'from user/check). Each node is asked (POST /keyshare/v1/check) and must hold the share: otherwise 404 KEY_SHARE_NOT_FOUND, ' +
        'or 503 UPSTREAM_UNAVAILABLE when it does not answer in time; nothing is marked then. On success every named node is ACTIVE. ' +
        'An ID token confirms a reshare once per wallet: a second use for the same wallet is 401 ID_TOKEN_REPLAYED (a failed confirmation does not count).',
      tags: ['user'],
      guards: [guards.apiKey, guards.idToken],
      body: {
        public_key: field.string({ pattern: PUBLIC_KEY, message: 'Invalid public key', typeMessage: 'Invalid public key' }).missing('Invalid public key'),
        reshared_key_shares: field.array({ min: 1, max: 255, message: 'reshared_key_shares is required' }),
        'reshared_key_shares.*': field.object({ message: 'reshared_key_shares[] must be {name, endpoint} objects' }),
        'reshared_key_shares.*.name': field.string({ pattern: NODE_NAME, message: 'reshared_key_shares[].name must be a node name' }).missing('reshared_key_shares[].name must be a node name'),
        'reshared_key_shares.*.endpoint': field
          .string({ pattern: /^https?:\/\/[^\s/]+(?:\/\S*)?$/, message: 'reshared_key_shares[].endpoint must be a URL' })
          .missing('reshared_key_shares[].endpoint must be a URL'),
      },
      errors: ['INVALID_REQUEST', 'UNAUTHORIZED', 'ID_TOKEN_REPLAYED', 'INVALID_API_KEY', 'USER_NOT_FOUND', 'KEY_SHARE_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      response: { type: 'null' },
      handler: (req, res) => service.reshare(verifiedIdentity(res), req.body.public_key as string, req.body.reshared_key_shares as Record<string, unknown>[]),
    }),
  ];
}
