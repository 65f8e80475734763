import type { ServiceJwt, VerifiedIdentity } from '@svc/auth';
import { databaseUnavailableError, type AuthType } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { KeyshareCheck, KeyshareService } from '../keyshare/service.js';
import type { UsersRepo } from './repo.js';
import { signInResult, type SignInResult } from './sign-in-result.js';

export interface UsersServiceOptions {
  /** Seconds after expiry during which signin_silently still refreshes a token. */
  silentRefreshWindowSeconds: number;
}

export function usersService(repo: UsersRepo, keyshare: KeyshareService, jwt: ServiceJwt, options: UsersServiceOptions) {
  return {
    async signin(identity: VerifiedIdentity): Promise<SignInResult> {
      const user = await repo.byIdentity(identity.authType, identity.subject);
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      if (user.wallets.length === 0) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
      return signInResult(jwt, user);
    },

    /**
     * A valid token gets a fresh one; an expired one only within the refresh window, and
     * only while its user and a wallet still exist.
     */
    async signinSilently(token: string | undefined): Promise<SignInResult> {
      if (!token) throw new AppError('UNAUTHORIZED', 'Unauthorized');
      const result = jwt.verify('user', token, options.silentRefreshWindowSeconds);
      if (!result.ok) {
        if (result.reason === 'wrong_audience') throw new AppError('FORBIDDEN', 'Forbidden');
        throw new AppError('UNAUTHORIZED', 'Unauthorized');
      }
      const user = await repo.byId(result.claims.sub);
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      if (user.wallets.length === 0) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
      return signInResult(jwt, user);
    },

    async check(email: string, authType?: AuthType): Promise<{ exists: boolean } & KeyshareCheck> {
      let users;
      try {
        users = await repo.byEmail(email.trim().toLowerCase(), authType);
      } catch (cause) {
        // An outage keeps its own retryable answer (503); anything else is the spec's message.
        throw databaseUnavailableError(cause) ?? new AppError('UNKNOWN_ERROR', 'Failed to get user', { cause });
      }
      const user = users[0];
      const meta = await keyshare.checkWallets(user ? user.wallets.map((w) => w.id) : null);
      return { exists: Boolean(user), ...meta };
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
