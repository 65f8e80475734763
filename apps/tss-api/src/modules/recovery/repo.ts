import type { AuthType, Curve, PrismaClient } from '@svc/db';

export interface SealedSeedPart {
  userId: string;
  walletId: string;
  curve: Curve;
  publicKey: string;
  keyId: string;
  ciphertext: Uint8Array;
}

export function recoveryRepo(db: PrismaClient) {
  return {
    /** The sealed server seed parts of the user's wallets (none for an unknown user). */
    async seedParts(authType: AuthType, providerSubject: string): Promise<SealedSeedPart[]> {
      const user = await db.user.findUnique({
        where: { authType_providerSubject: { authType, providerSubject } },
        select: {
          id: true,
          wallets: { select: { id: true, curve: true, publicKey: true, seedPartKeyId: true, seedPartCiphertext: true }, orderBy: { createdAt: 'asc' } },
        },
      });
      if (!user) return [];
      return user.wallets.map((w) => ({
        userId: user.id,
        walletId: w.id,
        curve: w.curve,
        publicKey: w.publicKey,
        keyId: w.seedPartKeyId,
        ciphertext: w.seedPartCiphertext,
      }));
    },
  };
}

export type RecoveryRepo = ReturnType<typeof recoveryRepo>;
