import type { ServiceClaims, ServiceJwt, VerifiedIdentity } from '@svc/auth';
import { databaseUnavailableError, type AuthType } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { KeyshareCheck, KeyshareService } from '../keyshare/service.js';
import type { UsersRepo } from './repo.js';
import { signInResult, type SignInResult } from './sign-in-result.js';

export function usersService(repo: UsersRepo, keyshare: KeyshareService, jwt: ServiceJwt) {
  return {
    async signin(identity: VerifiedIdentity): Promise<SignInResult> {
      const user = await repo.byIdentity(identity.authType, identity.subject);
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      if (user.wallets.length === 0) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
      return signInResult(jwt, user);
    },

    /**
     * A valid token gets a fresh one; an expired one only within the refresh window (the
     * route's refreshable user-JWT guard verified it and gives its claims), and only while
     * its user and a wallet still exist.
     */
    async signinSilently(claims: ServiceClaims): Promise<SignInResult> {
      const user = await repo.byId(claims.sub);
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      if (user.wallets.length === 0) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
      return signInResult(jwt, user);
    },

    /** Spec §4.1 rule 5: whatever fails while loading the user or its nodes' states is 500 "Failed to get user". */
    async check(email: string, authType?: AuthType): Promise<{ exists: boolean } & KeyshareCheck> {
      try {
        const [user] = await repo.byEmail(email.trim().toLowerCase(), authType);
        const meta = await keyshare.checkWallets(user ? user.wallets.map((w) => w.id) : null);
        return { exists: Boolean(user), ...meta };
      } catch (cause) {
        // An outage keeps its own retryable answer (503); anything else is the spec's message.
        throw databaseUnavailableError(cause) ?? new AppError('UNKNOWN_ERROR', 'Failed to get user', { cause });
      }
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
