import { randomBytes } from 'node:crypto';
import { toHex } from '@svc/crypto';
import { startHarness, type Harness } from './support/harness.js';
import { PROVIDER_KINDS, freshIdToken } from './support/id-tokens.js';
import { ed25519KeygenBody, newEd25519Key, post, signEd25519, verifyWithNode } from './support/wallet-client.js';

interface SignInData {
  token: string;
  user: { email: string; wallet_id: string; public_key: string; user_id: string; auth_type: string; wallets: { curve: string; wallet_id: string }[] };
}

describe('the whole journey, per login provider', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it.each(PROVIDER_KINDS)('%s: sign-in, keygen, sign-in again, ten Ed25519 signatures verified by node:crypto', async (kind) => {
    const { token: idToken, email } = await freshIdToken(h, kind);
    const idHeaders = { authorization: `Bearer ${idToken}`, 'x-api-key': h.apiKey };

    const before = await post(h.baseUrl, '/tss/v1/user/signin', undefined, idHeaders);
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ success: false, code: 'USER_NOT_FOUND', msg: 'User not found' });

    const key = await newEd25519Key();
    const created = await post<SignInData>(h.baseUrl, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(key) }, idHeaders);
    expect(created.status).toBe(200);
    const pub = toHex(key.keygen.publicKey);
    expect(created.body.data!.user).toMatchObject({ public_key: pub, auth_type: kind });
    if (email) expect(created.body.data!.user.email).toBe(email);
    else expect(created.body.data!.user.email).toMatch(/@telegram\.invalid$/);
    expect(created.body.data!.user.wallets).toEqual([{ curve: 'ed25519', wallet_id: created.body.data!.user.wallet_id, public_key: pub }]);

    const signin = await post<SignInData>(h.baseUrl, '/tss/v1/user/signin', undefined, idHeaders);
    expect(signin.status).toBe(200);
    expect(signin.body.data!.user.wallet_id).toBe(created.body.data!.user.wallet_id);

    const headers = { authorization: `Bearer ${signin.body.data!.token}`, 'x-api-key': h.apiKey };
    for (let i = 0; i < 10; i++) {
      const msg = randomBytes(32 + i * 17);
      const { signature } = await signEd25519(h.baseUrl, headers, key.keygen, msg);
      expect(signature).toHaveLength(64);
      expect(verifyWithNode(signature, msg, key.keygen.publicKey)).toBe(true);
      expect(verifyWithNode(signature, Buffer.concat([msg, Buffer.from([0])]), key.keygen.publicKey)).toBe(false);
    }
    const audit = await h.t.db.signatureAuditLog.count({ where: { walletId: created.body.data!.user.wallet_id } });
    expect(audit).toBe(10);

    const again = await post(h.baseUrl, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(await newEd25519Key()) }, idHeaders);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('WALLET_ALREADY_EXISTS');
  });
});
