import type { ServiceJwt } from '@svc/auth';
import { AppError } from '@svc/envelope';
import type { UserWithWallets } from './users-repo.js';

export interface SignInResult {
  token: string;
  user: {
    email: string;
    wallet_id: string;
    public_key: string;
    user_id: string;
    auth_type: string;
    /** Every wallet of the user, one per curve (the spec's wallet_id/public_key is the primary one). */
    wallets: { curve: string; wallet_id: string; public_key: string }[];
  };
}

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

export const SIGN_IN_RESULT_SCHEMA = {
  type: 'object',
  required: ['token', 'user'],
  properties: {
    token: { type: 'string', description: 'Service JWT (HS256, audience svc:user, lifetime JWT_EXPIRES_IN)' },
    user: {
      type: 'object',
      required: ['email', 'wallet_id', 'public_key', 'user_id', 'auth_type', 'wallets'],
      properties: {
        email: { type: 'string', description: 'Verified email, or `<id>@<provider>.invalid` for providers without one (Telegram, X)' },
        wallet_id: { type: 'string', format: 'uuid', description: 'Primary wallet: secp256k1 when present, else ed25519' },
        public_key: { type: 'string', description: 'Hex public key of the primary wallet' },
        user_id: { type: 'string', format: 'uuid' },
        auth_type: { type: 'string', enum: ['EMAIL', 'GOOGLE', 'APPLE', 'X', 'DISCORD', 'TELEGRAM', 'OIDC'] },
        wallets: {
          type: 'array',
          items: {
            type: 'object',
            required: ['curve', 'wallet_id', 'public_key'],
            properties: {
              curve: { type: 'string', enum: ['ed25519', 'secp256k1'] },
              wallet_id: { type: 'string', format: 'uuid' },
              public_key: { type: 'string', description: 'Hex: 32-byte RFC 8032 key (ed25519) or 33-byte compressed SEC1 (secp256k1)' },
            },
          },
        },
      },
    },
  },
};
