import { createHash, randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { aggregateEd25519, ed25519Wire, signRound1ClientEd25519, signRound2ClientEd25519, toHex } from '@svc/crypto';
import { startHarness, type Harness } from './support/harness.js';
import { post, signEd25519OneCall, verifyWithNode } from './support/wallet-client.js';
import { createWalletUser, type WalletUser } from './support/wallet-user.js';

const SIGN = '/tss/v1/sign';
/** A point of order 8 (a curve25519 fact). */
const ORDER_8 = '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05';

interface OneCallAnswer {
  session_id: string;
  commitment0: unknown;
  signature_share0: unknown;
}

describe('Ed25519 in one call (POST /tss/v1/sign with commitment1)', () => {
  let h: Harness;
  let alice: WalletUser;
  beforeAll(async () => {
    h = await startHarness({ TSS_SESSION_TTL_SECONDS: '60' });
    alice = await createWalletUser(h);
  });
  afterAll(() => h.stop());

  const rows = async () => ({ sessions: await h.t.db.tssSession.count(), audits: await h.t.db.signatureAuditLog.count() });

  /** The client's side of an answer: its share for the answered commitment0, then the aggregate. */
  function signatureFrom(msg: Uint8Array, client: ReturnType<typeof signRound1ClientEd25519>, answer: OneCallAnswer, nonces = client.nonces) {
    const commitment0 = ed25519Wire.decodeSigningCommitments(answer.commitment0);
    const signatureShare1 = signRound2ClientEd25519({ msg, keyPackage: alice.key.keygen.keygen1, nonces, commitment0, commitment1: client.commitment1 });
    const { share: signatureShare0 } = ed25519Wire.decodeSignatureShare(answer.signature_share0);
    return aggregateEd25519({ msg, publicKeyPackage: alice.key.keygen.publicKeyPackage, commitment0, commitment1: client.commitment1, signatureShare0, signatureShare1 });
  }

  it('answers the commitment and the share at once; the session is recorded completed, with its audit row', async () => {
    const msg = randomBytes(40);
    const { signature, sessionId } = await signEd25519OneCall(h.baseUrl, alice.headers, alice.key.keygen, msg);
    expect(verifyWithNode(signature, msg, alice.key.keygen.publicKey)).toBe(true);
    const session = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId }, include: { stages: true } });
    expect(session).toMatchObject({ status: 'COMPLETED', kind: 'SIGN_ED25519', customerId: h.customerId, apiKeyId: h.apiKeyId, walletId: alice.walletId });
    expect(session.completedAt).not.toBeNull();
    expect(session.stages.map((s) => [s.name, s.status]).sort()).toEqual([['round1', 'COMPLETED'], ['round2', 'COMPLETED']]);
    expect(Object.keys(session.state as object).sort()).toEqual(['commitment0', 'msg', 'msg_hash', 'v']);
    const audit = await h.t.db.signatureAuditLog.findFirstOrThrow({ where: { sessionId } });
    expect(audit).toMatchObject({ walletId: alice.walletId, curve: 'ed25519', messageHash: createHash('sha256').update(msg).digest('hex') });
  });

  it('the same request 50 times at once: 50 answers with 50 different server nonces, each an honest signature', async () => {
    const msg = randomBytes(32);
    const client = signRound1ClientEd25519(alice.key.keygen.keygen1);
    const body = { msg: toHex(msg), commitment1: ed25519Wire.encodeSigningCommitments(client.commitment1) };
    const before = await rows();
    const results = await Promise.all(Array.from({ length: 50 }, () => post<OneCallAnswer>(h.baseUrl, SIGN, body, alice.headers)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const answers = results.map((r) => r.body.data!);
    // Fresh nonces every time: no two answers share a commitment, so no two shares share nonces.
    expect(new Set(answers.map((a) => JSON.stringify(a.commitment0))).size).toBe(50);
    for (const a of answers) {
      // The client's nonces are its own to keep single-use; reused here only to check each answer.
      const nonces = { hiding: client.nonces.hiding.slice(), binding: client.nonces.binding.slice() };
      expect(verifyWithNode(signatureFrom(msg, client, a, nonces), msg, alice.key.keygen.publicKey)).toBe(true);
    }
    const after = await rows();
    expect(after).toEqual({ sessions: before.sessions + 50, audits: before.audits + 50 });
  });

  it('commitment0 carries a subgroup witness when commitment1 did, none for a client that sent none; both sign', async () => {
    for (const withWitness of [true, false]) {
      const msg = randomBytes(24);
      const client = signRound1ClientEd25519(alice.key.keygen.keygen1);
      expect(client.commitment1.witness).toBeDefined();
      const commitment1 = ed25519Wire.encodeSigningCommitments(client.commitment1, withWitness);
      const res = await post<OneCallAnswer>(h.baseUrl, SIGN, { msg: toHex(msg), commitment1 }, alice.headers);
      expect(res.status).toBe(200);
      const wire = res.body.data!.commitment0 as { hiding: string; binding: string; witness?: { hiding: string; binding: string } };
      if (withWitness) {
        // Each witness times the cofactor is its commitment (by noble's own point API).
        for (const k of ['hiding', 'binding'] as const) expect(ed25519.Point.fromHex(wire.witness![k]).multiplyUnsafe(8n).toHex()).toBe(wire[k]);
      } else {
        expect(Object.keys(wire).sort()).toEqual(['binding', 'ciphersuite', 'hiding', 'identifier', 'v']);
      }
      expect(verifyWithNode(signatureFrom(msg, client, res.body.data!), msg, alice.key.keygen.publicKey)).toBe(true);
    }
  });

  it('a malformed or hostile commitment1 is a 400 that writes nothing', async () => {
    const good = ed25519Wire.encodeSigningCommitments(signRound1ClientEd25519(alice.key.keygen.keygen1).commitment1);
    // Points of small order (y = 1: the identity; y = 0: order 4; y = p - 1: order 2) and a
    // non-canonical encoding (y = p). Torsioned points: packages/crypto's point cache tests.
    const cases = [
      { ...good, identifier: 2 },
      { ...good, hiding: 'zz' },
      { ...good, extra: 1 },
      { ...good, binding: '01' + '00'.repeat(31) },
      { ...good, hiding: '00'.repeat(32) },
      { ...good, hiding: 'ec' + 'ff'.repeat(30) + '7f' },
      { ...good, binding: 'ed' + 'ff'.repeat(30) + '7f' },
      // Subgroup witnesses that do not prove their commitment: swapped, an order-8 point, malformed.
      { ...good, witness: { hiding: good.witness!.binding, binding: good.witness!.hiding } },
      { ...good, witness: { ...good.witness!, hiding: ORDER_8 } },
      { ...good, hiding: ed25519.Point.fromHex(good.hiding).add(ed25519.Point.fromHex(ORDER_8)).toHex() },
      { ...good, witness: { hiding: good.witness!.hiding } },
      { ...good, witness: null },
    ];
    const before = await rows();
    for (const commitment1 of cases) {
      const res = await post(h.baseUrl, SIGN, { msg: 'aa', commitment1 }, alice.headers);
      expect([res.status, res.body.success]).toEqual([400, false]);
      expect(['INVALID_PROTOCOL_MESSAGE', 'INVALID_REQUEST']).toContain(res.body.code);
    }
    expect(await rows()).toEqual(before);
  });

  it.each([
    [{ commitment1: {} }, 'msg is required'],
    [{ msg: 'ABCD', commitment1: {} }, 'msg must be lowercase hex of even length'],
    [{ msg: 'aa', commitment1: 'x' }, 'commitment1 must be an object'],
    [{ msg: 'aa', commitment1: {}, extra: true }, 'Unknown field: extra'],
  ])('%j -> 400 %s', async (body, msg) => {
    const res = await post(h.baseUrl, SIGN, body, alice.headers);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });

  it('signing disabled -> 503 SIGNING_DISABLED, nothing written; a user without a wallet -> 404', async () => {
    const body = { msg: 'aa', commitment1: ed25519Wire.encodeSigningCommitments(signRound1ClientEd25519(alice.key.keygen.keygen1).commitment1) };
    const before = await rows();
    await h.t.db.tssActivationSetting.upsert({ where: { id: 1 }, create: { id: 1, signingEnabled: false }, update: { signingEnabled: false } });
    try {
      const res = await post(h.baseUrl, SIGN, body, alice.headers);
      expect([res.status, res.body]).toEqual([503, { success: false, code: 'SIGNING_DISABLED', msg: 'Signing is disabled' }]);
    } finally {
      await h.t.db.tssActivationSetting.update({ where: { id: 1 }, data: { signingEnabled: true } });
    }
    expect(await rows()).toEqual(before);
    const user = await h.t.db.user.create({ data: { email: 'nowallet-onecall@example.com', authType: 'GOOGLE', providerSubject: 'nowallet-onecall' } });
    const { token } = h.api.jwt.sign('user', user.id, { email: user.email });
    const none = await post(h.baseUrl, SIGN, body, { authorization: `Bearer ${token}`, 'x-api-key': h.apiKey });
    expect([none.status, none.body.code]).toEqual([404, 'WALLET_NOT_FOUND']);
  });

  it('needs both the user JWT and the API key', async () => {
    const body = { msg: 'aa', commitment1: {} };
    expect((await post(h.baseUrl, SIGN, body, { authorization: alice.headers.authorization! })).body.code).toBe('INVALID_API_KEY');
    expect((await post(h.baseUrl, SIGN, body, { 'x-api-key': h.apiKey })).body).toEqual({ success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' });
  });
});
