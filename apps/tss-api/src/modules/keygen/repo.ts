import type { AuthType, Curve, Prisma, PrismaClient } from '@svc/db';

export interface NewWallet {
  id: string;
  curve: Curve;
  publicKey: string;
  serverShare: { keyId: string; ciphertext: Uint8Array };
  seedPart: { keyId: string; ciphertext: Uint8Array };
}

export class WalletExistsError extends Error {}

export function keygenRepo(db: PrismaClient) {
  return {
    /**
     * Creates the user (if new) and the wallets in one transaction. `build` receives the user
     * id so the caller can bind the sealed secrets to it. Throws WalletExistsError when the
     * user already has a wallet of one of the curves; a concurrent duplicate fails on the
     * (user_id, curve) unique index (P2002) instead. `witness` records the ID token's use in
     * the same transaction (it throws on a replay, and nothing is created).
     */
    async createUserAndWallets(
      identity: { authType: AuthType; subject: string; email: string },
      curves: Curve[],
      build: (userId: string) => NewWallet[],
      witness: (tx: Prisma.TransactionClient, userId: string) => Promise<void>,
    ): Promise<string> {
      return db.$transaction(async (tx) => {
        const user = await tx.user.upsert({
          where: { authType_providerSubject: { authType: identity.authType, providerSubject: identity.subject } },
          create: { authType: identity.authType, providerSubject: identity.subject, email: identity.email },
          update: { email: identity.email },
          select: { id: true },
        });
        const existing = await tx.wallet.count({ where: { userId: user.id, curve: { in: curves } } });
        if (existing > 0) throw new WalletExistsError();
        for (const w of build(user.id)) {
          await tx.wallet.create({
            data: {
              id: w.id,
              userId: user.id,
              curve: w.curve,
              publicKey: w.publicKey,
              serverShareCiphertext: Buffer.from(w.serverShare.ciphertext),
              serverShareKeyId: w.serverShare.keyId,
              seedPartCiphertext: Buffer.from(w.seedPart.ciphertext),
              seedPartKeyId: w.seedPart.keyId,
            },
          });
        }
        // Last, so that a duplicate of a keygen that succeeded is told WALLET_ALREADY_EXISTS.
        await witness(tx, user.id);
        return user.id;
      });
    },
  };
}

export type KeygenRepo = ReturnType<typeof keygenRepo>;
