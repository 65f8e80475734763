import { verifiedIdentity } from '@svc/auth';
import { AppError } from '@svc/envelope';
import { defineRoute, field, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../guards.js';
import type { IdTokenWitness } from '../id-token-replay/witness.js';
import type { UsersRepo } from '../users/repo.js';
import type { KeyshareService, ResharedKeyShare } from './service.js';

const PUBLIC_KEY = /^(?:[0-9a-f]{64}|0[23][0-9a-f]{64})$/;
const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * user/reshare (spec 4.1 rules 6-7): after the client re-created lost nodes' shares and
 * registered them, it reports those nodes; tss-api asks each node that it now holds the
 * share, then marks them ACTIVE. Element shape of reshared_key_shares: {name, endpoint}, as
 * listed in user/check's keyshare_node_meta.nodes (docs/keyshare.md).
 */
export function keyshareRoutes(service: KeyshareService, users: UsersRepo, idTokens: IdTokenWitness, guards: TssGuards): RouteDef[] {
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
      handler: async (req, res) => {
        const identity = verifiedIdentity(res);
        const user = await users.byIdentity(identity.authType, identity.subject);
        if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
        const wallet = user.wallets.find((w) => w.publicKey === req.body.public_key);
        if (!wallet) throw new AppError('INVALID_REQUEST', 'Invalid public key');
        const elements = (req.body.reshared_key_shares as Record<string, unknown>[]).map((e) => {
          const extra = Object.keys(e).filter((k) => k !== 'name' && k !== 'endpoint');
          if (extra.length) throw new AppError('INVALID_REQUEST', `Unknown field: reshared_key_shares[].${extra[0]}`);
          return { name: e.name, endpoint: e.endpoint } as ResharedKeyShare;
        });
        // One confirmation per ID token and wallet (the SDK heals each wallet with the same token);
        // recorded first so concurrent replays are refused, taken back if the check fails so the client may retry.
        const purpose = `reshare:${wallet.id}`;
        await idTokens.record(identity, purpose, user.id);
        try {
          await service.confirmReshare(wallet, elements);
        } catch (error) {
          await idTokens.forget(identity, purpose);
          throw error;
        }
        return null;
      },
    }),
  ];
}
