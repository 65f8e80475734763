import { verifiedIdentity } from '@svc/auth';
import { AppError } from '@svc/envelope';
import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../guards.js';
import type { IdTokenWitness } from '../id-token-replay/witness.js';
import type { UsersRepo } from '../users/repo.js';
import type { KeyshareService, ResharedKeyShare } from './service.js';

/** user/reshare: the contract's nodes are asked, then marked ACTIVE (see tssApi.userReshare). */
export function keyshareRoutes(service: KeyshareService, users: UsersRepo, idTokens: IdTokenWitness, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.userReshare, {
      guards: [guards.apiKey, guards.idToken],
      handler: async (req, res) => {
        const identity = verifiedIdentity(res);
        const user = await users.byIdentity(identity.authType, identity.subject);
        if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
        const wallet = user.wallets.find((w) => w.publicKey === req.body.public_key);
        if (!wallet) throw new AppError('INVALID_REQUEST', 'Invalid public key');
        const elements = (req.body.reshared_key_shares as unknown as Record<string, unknown>[]).map((e) => {
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
