import type { VerifiedIdentity } from '@svc/auth';
import type { ResponseOf, tssApi } from '@svc/contract';
import { toHex } from '@svc/crypto';
import { AppError } from '@svc/envelope';
import type { ShareCipher } from '@svc/share-cipher';
import { seedPartAad } from '../../kernel/wallet-secrets.js';
import type { RecoveryRepo } from './repo.js';

/** The answer of user/seed_parts, as its contract declares it. */
export type SeedPartsResult = ResponseOf<typeof tssApi.userSeedParts>;

/**
 * Recovery on a new device and key export (docs/architecture.md, Keygen, backup and recovery): the client rebuilds each seed
 * from this server part and t user-part shares from the key share nodes. Only the holder of
 * the ID token gets it; the user part needs the session key committed to the nodes, which
 * the server never has, so this part alone gives nobody the seed.
 */
export function recoveryService(repo: RecoveryRepo, cipher: ShareCipher) {
  return {
    async seedParts(identity: VerifiedIdentity): Promise<SeedPartsResult> {
      const sealed = await repo.seedParts(identity.authType, identity.subject);
      if (sealed.length === 0) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
      return {
        wallets: sealed.map((w) => {
          const plain = cipher.open({ keyId: w.keyId, ciphertext: w.ciphertext }, seedPartAad(w.walletId, w.userId));
          const seedPart = toHex(plain);
          plain.fill(0);
          return { curve: w.curve, wallet_id: w.walletId, public_key: w.publicKey, seed_part: seedPart };
        }),
      };
    },
  };
}

export type RecoveryService = ReturnType<typeof recoveryService>;
