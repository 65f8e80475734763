import type { ServiceJwt } from '@svc/auth';
import type { SignInResult } from '@svc/contract';
import { AppError } from '@svc/envelope';
import type { UserWithWallets } from './users-repo.js';

/** Spec §2 sign-in result: the type of its contract's response schema. */
export type { SignInResult };

/** The wallet the spec's single user.wallet_id names: the secp256k1 one when present, else Ed25519. */
export function primaryWallet(user: UserWithWallets) {
  return user.wallets.find((w) => w.curve === 'secp256k1') ?? user.wallets[0];
}

/** Spec §2 sign-in result, with a fresh service JWT of kind "user". */
export function signInResult(jwt: ServiceJwt, user: UserWithWallets): SignInResult {
  const primary = primaryWallet(user);
  if (!primary) throw new AppError('WALLET_NOT_FOUND', 'Wallet not found');
  const { token } = jwt.sign('user', user.id, {
    email: user.email,
    auth_type: user.authType,
    wallet_ids: user.wallets.map((w) => w.id),
  });
  return {
    token,
    user: {
      email: user.email,
      wallet_id: primary.id,
      public_key: primary.publicKey,
      user_id: user.id,
      auth_type: user.authType,
      wallets: user.wallets.map((w) => ({ curve: w.curve, wallet_id: w.id, public_key: w.publicKey })),
    },
  };
}
