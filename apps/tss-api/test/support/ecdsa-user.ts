import type { Harness } from './harness.js';
import { newSecp256k1Key, poster, type EcdsaClientKey } from './ecdsa-client.js';
import { post } from './wallet-client.js';

export interface EcdsaUser {
  key: EcdsaClientKey;
  userId: string;
  walletId: string;
  headers: Record<string, string>;
}

let n = 0;

/** A Google user with a secp256k1 wallet from /tss/v1/keygen, signed in with the returned JWT. */
export async function createEcdsaUser(h: Harness, baseUrl = h.baseUrl): Promise<EcdsaUser> {
  const idToken = await h.google.issue({ sub: `ecdsa-${Date.now()}-${++n}`, email: `ecdsa${n}-${Date.now()}@example.com` });
  const key = newSecp256k1Key();
  const res = await post<{ token: string; user: { user_id: string; wallet_id: string; public_key: string; wallets: { curve: string; wallet_id: string; public_key: string }[] } }>(
    baseUrl,
    '/tss/v1/keygen',
    { secp256k1: key.keygenBody },
    { authorization: `Bearer ${idToken}`, 'x-api-key': h.apiKey },
  );
  if (res.status !== 200 || !res.body.data) throw new Error(`keygen ${res.status} ${JSON.stringify(res.body)}`);
  const wallet = res.body.data.user.wallets.find((w) => w.curve === 'secp256k1');
  if (!wallet || wallet.public_key !== key.keygenBody.public_key) throw new Error('keygen answered another public key');
  return { key, userId: res.body.data.user.user_id, walletId: wallet.wallet_id, headers: { authorization: `Bearer ${res.body.data.token}`, 'x-api-key': h.apiKey } };
}

export const via = (baseUrl: string, u: EcdsaUser) => () => poster(baseUrl, u.headers);
