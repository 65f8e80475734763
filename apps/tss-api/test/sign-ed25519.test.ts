import { randomBytes } from 'node:crypto';
import { ed25519Wire, signRound1ClientEd25519, toHex } from '@svc/crypto';
import { startHarness, type Harness } from './support/harness.js';
import { post, signEd25519, verifyWithNode } from './support/wallet-client.js';
import { createWalletUser, type WalletUser } from './support/wallet-user.js';

const ROUND1 = '/tss/v2/sign_ed25519/round1';
const ROUND2 = '/tss/v2/sign_ed25519/round2';

describe('Ed25519 signing sessions', () => {
  let h: Harness;
  let alice: WalletUser;
  let bob: WalletUser;
  beforeAll(async () => {
    h = await startHarness({ TSS_SESSION_TTL_SECONDS: '60' });
    [alice, bob] = await Promise.all([createWalletUser(h), createWalletUser(h)]);
  });
  afterAll(() => h.stop());

  const commitment1Of = (u: WalletUser) => ed25519Wire.encodeSigningCommitments(signRound1ClientEd25519(u.key.keygen.keygen1).commitment1);
  async function round1(u: WalletUser, msg = randomBytes(32)) {
    const res = await post<{ session_id: string; commitment0: unknown }>(h.baseUrl, ROUND1, { msg: toHex(msg) }, u.headers);
    expect(res.status).toBe(200);
    return res.body.data!.session_id;
  }

  it('records the session with its customer, API key, stages and audit row, and erases the nonces once used', async () => {
    const msg = randomBytes(40);
    const { signature, sessionId } = await signEd25519(h.baseUrl, alice.headers, alice.key.keygen, msg);
    expect(verifyWithNode(signature, msg, alice.key.keygen.publicKey)).toBe(true);
    const session = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId }, include: { stages: true } });
    expect(session).toMatchObject({ status: 'COMPLETED', kind: 'SIGN_ED25519', customerId: h.customerId, apiKeyId: h.apiKeyId, walletId: alice.walletId });
    expect(session.stages.map((s) => s.name).sort()).toEqual(['round1', 'round2']);
    expect(session.state).not.toHaveProperty('nonces');
    const audit = await h.t.db.signatureAuditLog.findFirstOrThrow({ where: { sessionId } });
    expect(audit).toMatchObject({ walletId: alice.walletId, curve: 'ed25519' });
    expect(audit.messageHash).toBe((await import('node:crypto')).createHash('sha256').update(msg).digest('hex'));
  });

  it("round 1's commitment0 carries no subgroup witness (the client has not said it reads one); round 2 takes commitment1 with or without one", async () => {
    const r1 = await post<{ session_id: string; commitment0: Record<string, unknown> }>(h.baseUrl, ROUND1, { msg: 'aa' }, alice.headers);
    expect(Object.keys(r1.body.data!.commitment0).sort()).toEqual(['binding', 'ciphersuite', 'hiding', 'identifier', 'v']);
    for (const withWitness of [true, false]) {
      const sessionId = await round1(alice);
      const commitment1 = ed25519Wire.encodeSigningCommitments(signRound1ClientEd25519(alice.key.keygen.keygen1).commitment1, withWitness);
      expect('witness' in commitment1).toBe(withWitness);
      const res = await post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1 }, alice.headers);
      expect(res.status).toBe(200);
    }
  });

  it('50 concurrent round-2 requests for one session: exactly one share', async () => {
    const sessionId = await round1(alice);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1: commitment1Of(alice) }, alice.headers)),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('SESSION_STATE_CONSUMED');
    }
    expect(await h.t.db.signatureAuditLog.count({ where: { sessionId } })).toBe(1);
  });

  it('refuses round 2 replayed with a different commitment1', async () => {
    const sessionId = await round1(alice);
    const first = await post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1: commitment1Of(alice) }, alice.headers);
    expect(first.status).toBe(200);
    const replay = await post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1: commitment1Of(alice) }, alice.headers);
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual({ success: false, code: 'SESSION_STATE_CONSUMED', msg: 'Session already used' });
  });

  it("refuses round 2 on another user's session without spending it", async () => {
    const sessionId = await round1(alice);
    const stolen = await post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1: commitment1Of(bob) }, bob.headers);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('SESSION_NOT_FOUND');
    const abort = await post(h.baseUrl, '/tss/v1/session/abort', { session_id: sessionId }, bob.headers);
    expect(abort.status).toBe(404);
    const own = await post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1: commitment1Of(alice) }, alice.headers);
    expect(own.status).toBe(200);
  });

  it('a malformed commitment1 is a 400 that leaves the session usable', async () => {
    const sessionId = await round1(alice);
    const good = commitment1Of(alice);
    const cases = [
      { ...good, identifier: 2 },
      { ...good, hiding: 'zz' },
      { ...good, extra: 1 },
      { ...good, hiding: '00'.repeat(32) },
    ];
    for (const commitment1 of cases) {
      const res = await post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1 }, alice.headers);
      expect(res.status).toBe(400);
      expect(['INVALID_PROTOCOL_MESSAGE', 'INVALID_REQUEST']).toContain(res.body.code);
    }
    expect((await post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1: good }, alice.headers)).status).toBe(200);
  });

  it.each([
    [{}, 'msg is required'],
    [{ msg: 'ABCD' }, 'msg must be lowercase hex of even length'],
    [{ msg: 'abc' }, 'msg must be lowercase hex of even length'],
    [{ msg: 12 }, 'msg must be a hex string'],
    [{ msg: 'ab', extra: true }, 'Unknown field: extra'],
  ])('round 1 with %j -> 400 %s', async (body, msg) => {
    const res = await post(h.baseUrl, ROUND1, body, alice.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });

  it('round 2 input errors', async () => {
    expect((await post(h.baseUrl, ROUND2, { commitment1: commitment1Of(alice) }, alice.headers)).body.msg).toBe('session_id is required');
    expect((await post(h.baseUrl, ROUND2, { session_id: 'nope', commitment1: {} }, alice.headers)).body.msg).toBe('session_id must be a UUID');
    const unknown = await post(h.baseUrl, ROUND2, { session_id: '00000000-0000-4000-8000-000000000000', commitment1: commitment1Of(alice) }, alice.headers);
    expect(unknown.status).toBe(404);
  });

  it('an expired session answers SESSION_EXPIRED and loses its nonces', async () => {
    const sessionId = await round1(alice);
    await h.t.db.tssSession.update({ where: { id: sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1: commitment1Of(alice) }, alice.headers);
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('SESSION_EXPIRED');
    const row = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row.status).toBe('EXPIRED');
    expect(row.state).toEqual({});
  });

  it('session/abort ends a session at any step; round 2 then fails', async () => {
    const sessionId = await round1(alice);
    const abort = await post(h.baseUrl, '/tss/v1/session/abort', { session_id: sessionId }, alice.headers);
    expect(abort.status).toBe(200);
    expect(abort.body).toEqual({ success: true, data: { session_id: sessionId } });
    const row = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row).toMatchObject({ status: 'ABORTED', state: {} });
    const r2 = await post(h.baseUrl, ROUND2, { session_id: sessionId, commitment1: commitment1Of(alice) }, alice.headers);
    expect(r2.status).toBe(409);
    expect(r2.body.code).toBe('SESSION_NOT_ACTIVE');
    const again = await post(h.baseUrl, '/tss/v1/session/abort', { session_id: sessionId }, alice.headers);
    expect(again.body.code).toBe('SESSION_NOT_ACTIVE');
  });

  it('TssActivationSetting signingEnabled=false -> 503 SIGNING_DISABLED for new sessions', async () => {
    await h.t.db.tssActivationSetting.upsert({ where: { id: 1 }, create: { id: 1, signingEnabled: false }, update: { signingEnabled: false } });
    try {
      const res = await post(h.baseUrl, ROUND1, { msg: 'aa' }, alice.headers);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ success: false, code: 'SIGNING_DISABLED', msg: 'Signing is disabled' });
    } finally {
      await h.t.db.tssActivationSetting.update({ where: { id: 1 }, data: { signingEnabled: true } });
    }
    expect((await post(h.baseUrl, ROUND1, { msg: 'aa' }, alice.headers)).status).toBe(200);
  });

  it('needs both the user JWT and the API key', async () => {
    const noKey = await post(h.baseUrl, ROUND1, { msg: 'aa' }, { authorization: alice.headers.authorization! });
    expect(noKey.status).toBe(401);
    expect(noKey.body.code).toBe('INVALID_API_KEY');
    const noJwt = await post(h.baseUrl, ROUND1, { msg: 'aa' }, { 'x-api-key': h.apiKey });
    expect(noJwt.body).toEqual({ success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' });
    const idTokenAsJwt = await post(h.baseUrl, ROUND1, { msg: 'aa' }, { authorization: `Bearer ${alice.idToken}`, 'x-api-key': h.apiKey });
    expect(idTokenAsJwt.status).toBe(401);
  });

  it('a user without an Ed25519 wallet gets WALLET_NOT_FOUND', async () => {
    const user = await h.t.db.user.create({ data: { email: 'nowallet@example.com', authType: 'GOOGLE', providerSubject: 'nowallet' } });
    const { token } = h.api.jwt.sign('user', user.id, { email: user.email });
    const res = await post(h.baseUrl, ROUND1, { msg: 'aa' }, { authorization: `Bearer ${token}`, 'x-api-key': h.apiKey });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('WALLET_NOT_FOUND');
  });
});
