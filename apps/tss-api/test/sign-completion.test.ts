import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { aggregateEd25519, ed25519Wire, signRound1ClientEd25519, signRound2ClientEd25519, toHex } from '@svc/crypto';
import { signShareClient } from '@svc/crypto/ecdsa';
import { startHarness, type Harness } from './support/harness.js';
import { fillPool, verifySha256WithNode, type PooledPresignature, type SignOutput } from './support/ecdsa-client.js';
import { createEcdsaUser, via, type EcdsaUser } from './support/ecdsa-user.js';
import { post, verifyWithNode } from './support/wallet-client.js';
import { createWalletUser, type WalletUser } from './support/wallet-user.js';

/* Spec §4.2: POST /tss/v1/sign "completes an ECDSA or EdDSA signature", told apart by the session. */
const SIGN = '/tss/v1/sign';
const sha256 = (m: Uint8Array) => new Uint8Array(createHash('sha256').update(m).digest());

describe('POST /tss/v1/sign completes either family', () => {
  let h: Harness;
  let alice: WalletUser;
  let bob: WalletUser;
  let carol: EcdsaUser;
  let pool: PooledPresignature[];
  beforeAll(async () => {
    h = await startHarness({ TSS_SESSION_TTL_SECONDS: '120' });
    [alice, bob, carol] = await Promise.all([createWalletUser(h), createWalletUser(h), createEcdsaUser(h)]);
    pool = await fillPool(via(h.baseUrl, carol), carol.key.keyShare, 5);
  }, 120_000);
  afterAll(() => h.stop());

  async function round1(u: WalletUser, msg: Uint8Array) {
    const client = signRound1ClientEd25519(u.key.keygen.keygen1);
    const res = await post<{ session_id: string; commitment0: unknown }>(h.baseUrl, '/tss/v2/sign_ed25519/round1', { msg: toHex(msg) }, u.headers);
    expect(res.status).toBe(200);
    return { client, sessionId: res.body.data!.session_id, commitment0: ed25519Wire.decodeSigningCommitments(res.body.data!.commitment0) };
  }

  it('Ed25519: round 2 through /tss/v1/sign gives the server share; the aggregate verifies; a replay is 409', async () => {
    const msg = randomBytes(48);
    const { client, sessionId, commitment0 } = await round1(alice, msg);
    const body = { session_id: sessionId, commitment1: ed25519Wire.encodeSigningCommitments(client.commitment1) };
    const res = await post<{ signature_share0: unknown }>(h.baseUrl, SIGN, body, alice.headers);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data!)).toEqual(['signature_share0']);
    const signature = aggregateEd25519({
      msg,
      publicKeyPackage: alice.key.keygen.publicKeyPackage,
      commitment0,
      commitment1: client.commitment1,
      signatureShare0: ed25519Wire.decodeSignatureShare(res.body.data!.signature_share0).share,
      signatureShare1: signRound2ClientEd25519({ msg, keyPackage: alice.key.keygen.keygen1, nonces: client.nonces, commitment0, commitment1: client.commitment1 }),
    });
    expect(verifyWithNode(signature, msg, alice.key.keygen.publicKey)).toBe(true);
    const replay = await post(h.baseUrl, SIGN, body, alice.headers);
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual({ success: false, code: 'SESSION_STATE_CONSUMED', msg: 'Session already used' });
  });

  it("Ed25519: round 2's rules apply (bad commitment1: 400, the session still usable); another user's session: 404", async () => {
    const { client, sessionId } = await round1(alice, randomBytes(8));
    const good = ed25519Wire.encodeSigningCommitments(client.commitment1);
    const bad = await post(h.baseUrl, SIGN, { session_id: sessionId, commitment1: { ...good, identifier: 2 } }, alice.headers);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_PROTOCOL_MESSAGE');
    const extra = await post(h.baseUrl, SIGN, { session_id: sessionId, commitment1: good, msg: [1] }, alice.headers);
    expect(extra.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'Unknown field: msg' });
    const stolen = await post(h.baseUrl, SIGN, { session_id: sessionId, commitment1: good }, bob.headers);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('SESSION_NOT_FOUND');
    expect((await post(h.baseUrl, SIGN, { session_id: sessionId, commitment1: good }, alice.headers)).status).toBe(200);
  });

  it('ECDSA: no session_id is the one-call form; the session_id of a step-1 session completes step 2; both verify', async () => {
    const [p1, p2] = [pool.shift()!, pool.shift()!];
    const message = randomBytes(20);
    const hash = sha256(message);
    const oneCall = await post<{ sign_output: SignOutput }>(
      h.baseUrl,
      SIGN,
      { msg: Array.from(hash), msgs_1: { presignature_id: p1.id, signature_share: signShareClient(p1.presignature, hash).signature_share } },
      carol.headers,
    );
    expect(oneCall.status).toBe(200);
    expect(verifySha256WithNode(oneCall.body.data!.sign_output, message, carol.key.publicKey)).toBe(true);

    const step1 = await post<{ session_id: string }>(h.baseUrl, '/tss/v1/sign/step1', { msg: Array.from(hash), msgs_1: { presignature_id: p2.id } }, carol.headers);
    expect(step1.status).toBe(200);
    const step2 = await post<{ session_id: string; sign_output: SignOutput }>(
      h.baseUrl,
      SIGN,
      { session_id: step1.body.data!.session_id, msg: Array.from(hash), msgs_1: { signature_share: signShareClient(p2.presignature, hash).signature_share } },
      carol.headers,
    );
    expect(step2.status).toBe(200);
    expect(step2.body.data!.session_id).toBe(step1.body.data!.session_id);
    expect(verifySha256WithNode(step2.body.data!.sign_output, message, carol.key.publicKey)).toBe(true);
  });

  it('a session_id that is not a UUID: 400; unknown or not a signing session: 404; nothing spent', async () => {
    const notUuid = await post(h.baseUrl, SIGN, { session_id: 'abc', commitment1: {} }, alice.headers);
    expect(notUuid.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'session_id must be a UUID' });
    const unknown = await post(h.baseUrl, SIGN, { session_id: randomUUID(), commitment1: {} }, alice.headers);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('SESSION_NOT_FOUND');
    const triples = await h.t.db.tssSession.findFirstOrThrow({ where: { userId: carol.userId, kind: 'TRIPLES' } });
    const wrongKind = await post(h.baseUrl, SIGN, { session_id: triples.id, msg: Array.from(randomBytes(32)), msgs_1: { signature_share: '00'.repeat(32) } }, carol.headers);
    expect(wrongKind.status).toBe(404);
    expect(wrongKind.body.code).toBe('SESSION_NOT_FOUND');
  });

  it('step1 takes a client-chosen session_id (spec §2); reusing one is 409 and spends nothing; not a UUID is 400', async () => {
    const [p1, p2] = [pool.shift()!, pool.shift()!];
    const hash = sha256(randomBytes(8));
    const chosen = randomUUID();
    const step1 = await post<{ session_id: string; msgs_0: { presignature_id: string } }>(
      h.baseUrl,
      '/tss/v1/sign/step1',
      { session_id: chosen, msg: Array.from(hash), msgs_1: { presignature_id: p1.id } },
      carol.headers,
    );
    expect(step1.status).toBe(200);
    expect(step1.body.data!.session_id).toBe(chosen);
    expect(await h.t.db.tssSession.findUniqueOrThrow({ where: { id: chosen } })).toMatchObject({ kind: 'SIGN_ECDSA', userId: carol.userId });

    // The same id again, with another presignature: refused, and that presignature stays in the pool.
    const again = await post(h.baseUrl, '/tss/v1/sign/step1', { session_id: chosen, msg: Array.from(hash), msgs_1: { presignature_id: p2.id } }, carol.headers);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, code: 'SESSION_ALREADY_EXISTS', msg: 'Session already exists' });
    expect((await h.t.db.presignaturePoolItem.findUniqueOrThrow({ where: { id: p2.id } })).status).toBe('UNUSED');
    // Another user's session id is taken just the same.
    const ed = await post<{ session_id: string }>(h.baseUrl, '/tss/v2/sign_ed25519/round1', { msg: 'aa' }, alice.headers);
    const foreign = await post(h.baseUrl, '/tss/v1/sign/step1', { session_id: ed.body.data!.session_id, msg: Array.from(hash), msgs_1: { presignature_id: p2.id } }, carol.headers);
    expect(foreign.status).toBe(409);
    const bad = await post(h.baseUrl, '/tss/v1/sign/step1', { session_id: 'not-a-uuid', msg: Array.from(hash), msgs_1: { presignature_id: p2.id } }, carol.headers);
    expect(bad.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'session_id must be a UUID' });

    // The spec-shaped step 2 completes the client-named session.
    const step2 = await post<{ sign_output: SignOutput }>(
      h.baseUrl,
      '/tss/v1/sign/step2',
      { session_id: chosen, msg: Array.from(hash), msgs_1: { signature_share: signShareClient(p1.presignature, hash).signature_share } },
      carol.headers,
    );
    expect(step2.status).toBe(200);
    expect((await h.t.db.presignaturePoolItem.findUniqueOrThrow({ where: { id: p2.id } })).status).toBe('UNUSED');
  });
});
