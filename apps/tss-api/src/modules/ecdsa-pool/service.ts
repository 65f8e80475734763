import { AppError } from '@svc/envelope';
import type { SigningWalletRepo } from '../../kernel/signing-wallet.js';
import type { EcdsaPoolRepo } from './repo.js';

export interface DiscardResult {
  discarded_presignatures: number;
  discarded_triples: number;
}

/** Drops the server's halves of the caller's unused presignatures and triples (routes.ts says when). */
export function ecdsaPoolService(deps: { wallets: SigningWalletRepo; repo: EcdsaPoolRepo }) {
  return {
    async discard(userId: string): Promise<DiscardResult> {
      const { wallet } = await deps.wallets.secp256k1(userId);
      if (!wallet) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
      const n = await deps.repo.discardUnused(wallet.id);
      return { discarded_presignatures: n.presignatures, discarded_triples: n.triples };
    },
  };
}

export type EcdsaPoolService = ReturnType<typeof ecdsaPoolService>;
