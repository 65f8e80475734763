import { dealSecp256k1, ed25519Wire, keygenSeedEd25519, toHex } from '@svc/crypto';
import { randomBytes } from 'node:crypto';
import { startHarness, type Harness } from './support/harness.js';
import { ed25519KeygenBody, newEd25519Key, post } from './support/wallet-client.js';

describe('POST /tss/v1/keygen', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  let n = 0;
  const headersFor = async () => ({ authorization: `Bearer ${await h.google.issue({ sub: `kg-${Date.now()}-${++n}`, email: `kg${n}@example.com` })}`, 'x-api-key': h.apiKey });

  function secp256k1Body() {
    const deal = dealSecp256k1(randomBytes(32));
    return {
      deal,
      body: { secret_share: toHex(deal.shares[1].secretShare), public_key: toHex(deal.publicKey), commitments: deal.commitments.map(toHex), seed_part: 'aa'.repeat(33) },
    };
  }

  it('creates both curves in one call and refuses a second keygen per curve', async () => {
    const headers = await headersFor();
    const key = await newEd25519Key();
    const { deal, body } = secp256k1Body();
    const res = await post<{ user: { wallet_id: string; public_key: string; wallets: { curve: string }[] } }>(
      h.baseUrl,
      '/tss/v1/keygen',
      { ed25519: ed25519KeygenBody(key), secp256k1: body },
      headers,
    );
    expect(res.status).toBe(200);
    expect(res.body.data!.user.public_key).toBe(toHex(deal.publicKey));
    expect(res.body.data!.user.wallets.map((w) => w.curve).sort()).toEqual(['ed25519', 'secp256k1']);
    const dup = await post(h.baseUrl, '/tss/v1/keygen', { secp256k1: secp256k1Body().body }, headers);
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ success: false, code: 'WALLET_ALREADY_EXISTS', msg: 'Wallet already exists' });
  });

  it('an existing user may add the other curve later, with a fresh ID token: a used one is refused (401 ID_TOKEN_REPLAYED), nothing created', async () => {
    const sub = `kg-later-${Date.now()}`;
    const headersOf = async () => ({ authorization: `Bearer ${await h.google.issue({ sub, email: `${sub}@example.com` })}`, 'x-api-key': h.apiKey });
    const first = await headersOf();
    expect((await post(h.baseUrl, '/tss/v1/keygen', { secp256k1: secp256k1Body().body }, first)).status).toBe(200);
    const replay = await post(h.baseUrl, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(await newEd25519Key()) }, first);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ success: false, code: 'ID_TOKEN_REPLAYED', msg: 'This ID token was already used for this operation; sign in again' });
    const user = await h.t.db.user.findFirstOrThrow({ where: { providerSubject: sub }, include: { wallets: true, witnessedIdTokens: true } });
    expect(user.wallets.map((w) => w.curve)).toEqual(['secp256k1']);
    expect(user.witnessedIdTokens.map((w) => [w.purpose, w.authType])).toEqual([['keygen', 'GOOGLE']]);
    expect((await post(h.baseUrl, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(await newEd25519Key()) }, await headersOf())).status).toBe(200);
  });

  it('concurrent keygens for one user and curve: one wallet', async () => {
    const headers = await headersFor();
    const results = await Promise.all(Array.from({ length: 5 }, async () => post(h.baseUrl, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(await newEd25519Key()) }, headers)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
  });

  it('keygen_2 not matching the public key package -> 400 KEY_PACKAGE_MISMATCH, nothing stored', async () => {
    const headers = await headersFor();
    const a = keygenSeedEd25519();
    const b = keygenSeedEd25519();
    const before = await h.t.db.wallet.count();
    const res = await post(h.baseUrl, '/tss/v1/keygen', {
      ed25519: { key_package: ed25519Wire.encodeKeyPackage(a.keygen2), public_key_package: ed25519Wire.encodePublicKeyPackage(b.publicKeyPackage), seed_part: 'ab'.repeat(33) },
    }, headers);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('KEY_PACKAGE_MISMATCH');
    const { body } = secp256k1Body();
    const bad = await post(h.baseUrl, '/tss/v1/keygen', { secp256k1: { ...body, secret_share: toHex(randomBytes(32)) } }, headers);
    expect(bad.body.code).toBe('KEY_PACKAGE_MISMATCH');
    expect(await h.t.db.wallet.count()).toBe(before);
  });

  it.each([
    [{}, 'ed25519 or secp256k1 is required'],
    [{ ed25519: 'x' }, 'ed25519 must be an object'],
    [{ ed25519: { public_key_package: {}, seed_part: 'aa' } }, 'ed25519.key_package is required'],
    [{ other: 1 }, 'Unknown field: other'],
    [{ ed25519: { seed_part: 'XYZ' } }, 'ed25519.seed_part must be lowercase hex'],
  ])('bad body %j -> 400 %s', async (body, msg) => {
    const res = await post(h.baseUrl, '/tss/v1/keygen', body, await headersFor());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });

  it('refuses the client package (identifier 1) and malformed wire objects', async () => {
    const key = await newEd25519Key();
    const asClient = { ...ed25519KeygenBody(key), key_package: ed25519Wire.encodeKeyPackage(key.keygen.keygen1) };
    const res = await post(h.baseUrl, '/tss/v1/keygen', { ed25519: asClient }, await headersFor());
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'ed25519.key_package must be keygen_2 (identifier 2)' });
    const broken = { ...ed25519KeygenBody(key), key_package: { ...ed25519Wire.encodeKeyPackage(key.keygen.keygen2), v: 9 } };
    const res2 = await post(h.baseUrl, '/tss/v1/keygen', { ed25519: broken }, await headersFor());
    expect(res2.status).toBe(400);
    expect(res2.body.msg).toMatch(/^ed25519\.key_package: /);
  });

  it('needs an ID token (a service JWT is not one) and an API key', async () => {
    const body = { ed25519: ed25519KeygenBody(await newEd25519Key()) };
    expect((await post(h.baseUrl, '/tss/v1/keygen', body, { 'x-api-key': h.apiKey })).status).toBe(401);
    const { token } = h.api.jwt.sign('user', '00000000-0000-4000-8000-000000000000');
    expect((await post(h.baseUrl, '/tss/v1/keygen', body, { authorization: `Bearer ${token}`, 'x-api-key': h.apiKey })).status).toBe(401);
    const headers = await headersFor();
    expect((await post(h.baseUrl, '/tss/v1/keygen', body, { authorization: headers.authorization })).body.code).toBe('INVALID_API_KEY');
  });
});
