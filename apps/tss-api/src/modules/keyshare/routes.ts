import { verifiedIdentity } from '@svc/auth';
import { AppError } from '@svc/envelope';
import { defineRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../guards.js';
import type { UsersRepo } from '../users/repo.js';
import type { KeyshareService } from './service.js';

const PUBLIC_KEY = /^(?:[0-9a-f]{64}|0[23][0-9a-f]{64})$/;

/**
 * user/reshare, minimal until [keyshare]: validates the spec's rows and records that the named
 * nodes hold fresh shares of the wallet again. Asking the nodes themselves comes with [keyshare].
 */
export function keyshareRoutes(service: KeyshareService, users: UsersRepo, guards: TssGuards): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/user/reshare',
      summary: 'Report that the key share nodes hold fresh shares after a reshare',
      description:
        'Bearer ID token and X-API-Key. `public_key` is the hex public key of one of the user\u2019s wallets; `reshared_key_shares` lists ' +
        'the nodes that now hold a fresh share, as {name, endpoint} (names from user/check).',
      tags: ['user'],
      guards: [guards.apiKey, guards.idToken],
      body: {
        public_key: {
          exists: { errorMessage: 'Invalid public key', bail: true },
          isString: { errorMessage: 'Invalid public key', bail: true },
          matches: { options: PUBLIC_KEY, errorMessage: 'Invalid public key' },
        },
        reshared_key_shares: { exists: { errorMessage: 'reshared_key_shares is required', bail: true }, isArray: { options: { min: 1, max: 255 }, errorMessage: 'reshared_key_shares is required' } },
        'reshared_key_shares.*.name': { isString: { errorMessage: 'reshared_key_shares[].name must be a string' } },
        'reshared_key_shares.*.endpoint': { isURL: { options: { require_tld: false }, errorMessage: 'reshared_key_shares[].endpoint must be a URL' } },
      },
      errors: ['INVALID_API_KEY', 'USER_NOT_FOUND'],
      handler: async (req, res) => {
        const identity = verifiedIdentity(res);
        const user = await users.byIdentity(identity.authType, identity.subject);
        if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
        const wallet = user.wallets.find((w) => w.publicKey === req.body.public_key);
        if (!wallet) throw new AppError('INVALID_REQUEST', 'Invalid public key');
        const names = (req.body.reshared_key_shares as { name: string }[]).map((s) => s.name);
        const unknown = await service.markReshared([wallet.id], names);
        if (unknown.length) throw new AppError('INVALID_REQUEST', `Unknown key share node: ${unknown.join(', ')}`);
        return null;
      },
    }),
  ];
}
