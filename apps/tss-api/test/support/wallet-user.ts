import type { Harness } from './harness.js';
import { freshIdToken } from './id-tokens.js';
import { ed25519KeygenBody, newEd25519Key, post, type Ed25519ClientKey } from './wallet-client.js';

export interface WalletUser {
  key: Ed25519ClientKey;
  idToken: string;
  token: string;
  userId: string;
  walletId: string;
  /** Headers of a signed-in call: service JWT + API key. */
  headers: Record<string, string>;
}

/** A Google user with an Ed25519 wallet, signed in. */
export async function createWalletUser(h: Harness): Promise<WalletUser> {
  const { token: idToken } = await freshIdToken(h, 'GOOGLE');
  const key = await newEd25519Key();
  const res = await post<{ token: string; user: { user_id: string; wallet_id: string } }>(
    h.baseUrl,
    '/tss/v1/keygen',
    { ed25519: ed25519KeygenBody(key) },
    { authorization: `Bearer ${idToken}`, 'x-api-key': h.apiKey },
  );
  if (res.status !== 200 || !res.body.data) throw new Error(`keygen ${res.status} ${JSON.stringify(res.body)}`);
  const { token, user } = res.body.data;
  return { key, idToken, token, userId: user.user_id, walletId: user.wallet_id, headers: { authorization: `Bearer ${token}`, 'x-api-key': h.apiKey } };
}
