import type { PrismaClient } from '@svc/db';
import { AppError } from '@svc/envelope';
import { authClaims } from '@svc/auth';
import { defineRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../guards.js';
import { ecdsaWalletOf } from '../signing-wallet/repo.js';
import type { EcdsaPoolRepo } from './repo.js';

/**
 * The server keeps its halves of presignatures and triples; the client keeps the other halves
 * in memory. When a client has lost its halves (page reload, new device, recovery) the server's
 * rows are orphans that only fill the cap, so the client may drop them.
 */
export function ecdsaPoolRoutes(db: PrismaClient, repo: EcdsaPoolRepo, guards: TssGuards): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/presign/discard',
      summary: 'Drop the unused ECDSA presignatures and triples of the caller\u2019s wallet',
      description:
        'Marks every UNUSED presignature and triple of the caller\u2019s secp256k1 wallet DISCARDED and erases its sealed material, in one ' +
        'transaction; rows already taken by a sign or presign session are untouched. The SDK calls it when a fill meets 409 ' +
        'PRESIGNATURE_POOL_FULL while its own pool is empty (the client halves were lost). Presignatures another tab or device of the same ' +
        'user still holds then answer 409 PRESIGNATURE_NOT_AVAILABLE at sign/step1, and that client refills. Body `{}`.',
      tags: ['signing'],
      guards: [guards.apiKey, guards.userJwt],
      body: {},
      errors: ['INVALID_API_KEY', 'FORBIDDEN', 'WALLET_NOT_FOUND'],
      response: {
        type: 'object',
        required: ['discarded_presignatures', 'discarded_triples'],
        properties: { discarded_presignatures: { type: 'integer', minimum: 0 }, discarded_triples: { type: 'integer', minimum: 0 } },
      },
      handler: async (_req, res) => {
        const { wallet } = await ecdsaWalletOf(db, authClaims(res).sub);
        if (!wallet) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
        const n = await repo.discardUnused(wallet.id);
        return { discarded_presignatures: n.presignatures, discarded_triples: n.triples };
      },
    }),
  ];
}
