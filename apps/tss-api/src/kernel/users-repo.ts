import type { AuthType, Curve, PrismaClient } from '@svc/db';

export interface WalletSummary {
  id: string;
  curve: Curve;
  publicKey: string;
  createdAt: Date;
}

export interface UserWithWallets {
  id: string;
  email: string;
  authType: AuthType;
  wallets: WalletSummary[];
}

const WITH_WALLETS = {
  id: true,
  email: true,
  authType: true,
  wallets: { select: { id: true, curve: true, publicKey: true, createdAt: true }, orderBy: { createdAt: 'asc' } },
} as const;

export function usersRepo(db: PrismaClient) {
  return {
    byIdentity(authType: AuthType, providerSubject: string): Promise<UserWithWallets | null> {
      return db.user.findUnique({ where: { authType_providerSubject: { authType, providerSubject } }, select: WITH_WALLETS });
    },

    byId(id: string): Promise<UserWithWallets | null> {
      return db.user.findUnique({ where: { id }, select: WITH_WALLETS });
    },

    /** Users with this email (one per login provider at most, usually one). */
    byEmail(email: string, authType?: AuthType): Promise<UserWithWallets[]> {
      return db.user.findMany({ where: { email, ...(authType ? { authType } : {}) }, select: WITH_WALLETS, orderBy: { createdAt: 'asc' } });
    },
  };
}

export type UsersRepo = ReturnType<typeof usersRepo>;
