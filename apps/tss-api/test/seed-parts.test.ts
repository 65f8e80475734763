import { toHex } from '@svc/crypto';
import { startHarness, type Harness } from './support/harness.js';
import { freshIdToken } from './support/id-tokens.js';
import { createWalletUser } from './support/wallet-user.js';
import { post } from './support/wallet-client.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

describe('POST /tss/v1/user/seed_parts (recovery and export)', () => {
  it('gives the ID token holder the server seed part stored at keygen, and nobody else', async () => {
    const user = await createWalletUser(h);
    const headers = { authorization: `Bearer ${user.idToken}`, 'x-api-key': h.apiKey };
    const res = await post<{ wallets: { curve: string; wallet_id: string; public_key: string; seed_part: string }[] }>(h.baseUrl, '/tss/v1/user/seed_parts', undefined, headers);
    expect(res.status).toBe(200);
    expect(res.body.data!.wallets).toEqual([
      { curve: 'ed25519', wallet_id: user.walletId, public_key: toHex(user.key.keygen.publicKey), seed_part: toHex(user.key.serverSeedPart) },
    ]);

    // A service JWT is not a fresh sign-in: refused.
    const jwt = await post(h.baseUrl, '/tss/v1/user/seed_parts', undefined, user.headers);
    expect(jwt.status).toBe(401);
    expect(jwt.body).toEqual({ success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' });
    // No API key.
    expect((await post(h.baseUrl, '/tss/v1/user/seed_parts', undefined, { authorization: `Bearer ${user.idToken}` })).status).toBe(401);
    // Another login without a wallet.
    const { token: other } = await freshIdToken(h, 'GOOGLE');
    const none = await post(h.baseUrl, '/tss/v1/user/seed_parts', undefined, { authorization: `Bearer ${other}`, 'x-api-key': h.apiKey });
    expect(none.body).toEqual({ success: false, code: 'WALLET_NOT_FOUND', msg: 'Wallet not found' });
  });
});
