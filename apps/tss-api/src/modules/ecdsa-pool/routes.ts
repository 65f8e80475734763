import type { PrismaClient } from '@svc/db';
import { AppError } from '@svc/envelope';
import { authClaims } from '@svc/auth';
import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../guards.js';
import { ecdsaWalletOf } from '../signing-wallet/repo.js';
import type { EcdsaPoolRepo } from './repo.js';

export function ecdsaPoolRoutes(db: PrismaClient, repo: EcdsaPoolRepo, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.ecdsaPresignDiscard, {
      guards: [guards.apiKey, guards.userJwt],
      handler: async (_req, res) => {
        const { wallet } = await ecdsaWalletOf(db, authClaims(res).sub);
        if (!wallet) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
        const n = await repo.discardUnused(wallet.id);
        return { discarded_presignatures: n.presignatures, discarded_triples: n.triples };
      },
    }),
  ];
}
