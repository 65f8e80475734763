import type { TokenRevocation } from '@svc/accounts';
import type { ServiceClaims, ServiceJwt, VerifiedIdentity } from '@svc/auth';
import { databaseUnavailableError, type AuthType } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { KeyShareBackups, KeyshareCheck } from '../../kernel/key-share-backups.js';
import type { UsersRepo } from '../../kernel/users-repo.js';
import { signInResult, type SignInResult } from '../../kernel/sign-in-result.js';

export interface UsersServiceOptions {
  /** Seconds after expiry during which signin_silently still refreshes a token. */
  silentRefreshWindowSeconds: number;
}

export function usersService(repo: UsersRepo, keyshare: KeyShareBackups, jwt: ServiceJwt, revocation: TokenRevocation, options: UsersServiceOptions) {
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
     * its user and a wallet still exist. The old token is revoked before the new one is
     * issued, once: of concurrent refreshes with one token (on any replica) only one gets a
     * new token, and a signed-out token gets none.
     */
    async signinSilently(claims: ServiceClaims): Promise<SignInResult> {
      const user = await repo.byId(claims.sub);
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      if (user.wallets.length === 0) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
      if (!(await revocation.revokeOnce(claims, options.silentRefreshWindowSeconds))) throw new AppError('UNAUTHORIZED', 'Unauthorized');
      return signInResult(jwt, user);
    },

    /** Revokes the caller's token on every replica (it stays revoked until it could no longer be refreshed anyway). */
    async signout(claims: ServiceClaims): Promise<{ message: 'Signed out' }> {
      await revocation.revoke(claims, options.silentRefreshWindowSeconds);
      return { message: 'Signed out' };
    },

    async check(email: string, authType?: AuthType, options: { askNodes?: boolean } = {}): Promise<{ exists: boolean } & KeyshareCheck> {
      try {
        const [user] = await repo.byEmail(email.trim().toLowerCase(), authType);
        const meta = await keyshare.checkWallets(user ? user.wallets.map((w) => w.id) : null, options);
        return { exists: Boolean(user), ...meta };
      } catch (cause) {
        // An outage keeps its own retryable answer (503); anything else is the spec's message.
        throw databaseUnavailableError(cause) ?? new AppError('UNKNOWN_ERROR', 'Failed to get user', { cause });
      }
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
