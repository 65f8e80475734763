import { createHash, randomBytes } from 'node:crypto';
import { toHex } from '@svc/crypto';
import { signShareClient } from '@svc/crypto/ecdsa';
import { createLogger } from '@svc/http';
import { startExpirySweeper } from '../src/modules/sessions/expiry-sweeper.js';
import { sessionsRepo } from '../src/kernel/sessions/repo.js';
import { startHarness, type Harness } from './support/harness.js';
import {
  fillPool,
  generateTriples,
  poster,
  recoverPublicKey,
  signOneTrip,
  signTwoSteps,
  verifySha256WithNode,
  type PooledPresignature,
} from './support/ecdsa-client.js';
import { createEcdsaUser, via, type EcdsaUser } from './support/ecdsa-user.js';
import { post } from './support/wallet-client.js';

const STEP1 = '/tss/v1/sign/step1';
const STEP2 = '/tss/v1/sign/step2';
const sha256 = (m: Uint8Array) => new Uint8Array(createHash('sha256').update(m).digest());

describe('ECDSA over HTTP: keygen, pool, sign', () => {
  let h: Harness;
  let alice: EcdsaUser;
  let bob: EcdsaUser;
  let pool: PooledPresignature[];
  const take = () => {
    const p = pool.shift();
    if (!p) throw new Error('test pool empty');
    return p;
  };

  beforeAll(async () => {
    h = await startHarness({ TSS_SESSION_TTL_SECONDS: '120' });
    [alice, bob] = await Promise.all([createEcdsaUser(h), createEcdsaUser(h)]);
    pool = await fillPool(via(h.baseUrl, alice), alice.key.keyShare, 32);
  }, 120_000);
  afterAll(() => h.stop());

  it('fills the pool: sealed UNUSED rows, sessions COMPLETED with every stage, customer and API key recorded', async () => {
    expect(pool).toHaveLength(32);
    expect(await h.t.db.presignaturePoolItem.count({ where: { walletId: alice.walletId, status: 'UNUSED' } })).toBe(32);
    expect(await h.t.db.triplePoolItem.count({ where: { walletId: alice.walletId, status: 'CONSUMED', material: { equals: Buffer.alloc(0) } } })).toBe(64);
    const sessions = await h.t.db.tssSession.findMany({ where: { walletId: alice.walletId }, include: { stages: true } });
    const byKind = Object.fromEntries(sessions.map((s) => [s.kind, s]));
    expect(byKind.TRIPLES).toMatchObject({ status: 'COMPLETED', customerId: h.customerId, apiKeyId: h.apiKeyId, state: { v: 1, next_step: 4, count: 64 } });
    expect(byKind.TRIPLES!.stages.map((s) => s.name).sort()).toEqual(['triples/1', 'triples/2', 'triples/3']);
    expect(byKind.PRESIGN).toMatchObject({ status: 'COMPLETED', state: { v: 1, next_step: 3, count: 32 } });
    expect(byKind.PRESIGN!.stages.map((s) => s.name).sort()).toEqual(['presign/1', 'presign/2', 'triples_consumed']);
  });

  it('20 signatures on distinct hashes (sign, step1 alone, step1 + step2) verify with OpenSSL and recover the wallet key', async () => {
    const p = poster(h.baseUrl, alice.headers);
    const modes = [
      (hash: Uint8Array) => signOneTrip(p, take(), hash),
      (hash: Uint8Array) => signOneTrip(p, take(), hash, STEP1),
      (hash: Uint8Array) => signTwoSteps(via(h.baseUrl, alice), take(), hash),
    ];
    for (let i = 0; i < 20; i++) {
      const message = randomBytes(48);
      const hash = sha256(message);
      const { output, sessionId } = await modes[i % 3]!(hash);
      expect(output.r).toHaveLength(32);
      expect(output.s).toHaveLength(32);
      expect(verifySha256WithNode(output, message, alice.key.publicKey)).toBe(true);
      expect(recoverPublicKey(output, hash)).toBe(toHex(alice.key.publicKey));
      const audit = await h.t.db.signatureAuditLog.findFirstOrThrow({ where: { sessionId } });
      expect(audit).toMatchObject({ walletId: alice.walletId, curve: 'secp256k1', messageHash: toHex(hash) });
      const session = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } });
      expect(session).toMatchObject({ kind: 'SIGN_ECDSA', status: 'COMPLETED' });
      expect(session.state).not.toHaveProperty('presignature');
    }
  });

  it('50 concurrent step1 requests on one presignature: exactly one signature; a replay afterwards is refused', async () => {
    const pooled = take();
    const hash = sha256(randomBytes(16));
    const share = signShareClient(structuredClone(pooled.presignature), hash).signature_share;
    const body = { msg: Array.from(hash), msgs_1: { presignature_id: pooled.id, signature_share: share } };
    const results = await Promise.all(Array.from({ length: 50 }, () => post(h.baseUrl, STEP1, body, alice.headers)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body).toEqual({ success: false, code: 'PRESIGNATURE_NOT_AVAILABLE', msg: 'Presignature not available' });
    expect(await h.t.db.tssSession.count({ where: { kind: 'SIGN_ECDSA', consumedPresignatures: { some: { id: pooled.id } } } })).toBe(1);
    const replay = await post(h.baseUrl, STEP1, body, alice.headers);
    expect(replay.status).toBe(409);
    expect(await h.t.db.presignaturePoolItem.findUniqueOrThrow({ where: { id: pooled.id } })).toMatchObject({ status: 'CONSUMED', material: Buffer.alloc(0) });
  });

  it('step2: 50 concurrent duplicates give one signature; a replay is refused; another user gets 404', async () => {
    const pooled = take();
    const hash = sha256(randomBytes(16));
    const s1 = await post<{ session_id: string; sign_output: null }>(h.baseUrl, STEP1, { msg: Array.from(hash), msgs_1: { presignature_id: pooled.id } }, alice.headers);
    expect(s1.body.data!.sign_output).toBeNull();
    const sessionId = s1.body.data!.session_id;
    const share = signShareClient(pooled.presignature, hash).signature_share;
    const body = { session_id: sessionId, msg: Array.from(hash), msgs_1: { signature_share: share } };
    const stolen = await post(h.baseUrl, STEP2, body, bob.headers);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('SESSION_NOT_FOUND');
    const results = await Promise.all(Array.from({ length: 50 }, () => post(h.baseUrl, STEP2, body, alice.headers)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body).toMatchObject({ code: 'SESSION_STATE_CONSUMED' });
    expect(await h.t.db.signatureAuditLog.count({ where: { sessionId } })).toBe(1);
    expect((await post(h.baseUrl, STEP2, body, alice.headers)).body.code).toBe('SESSION_STATE_CONSUMED');
  });

  it("another user's JWT cannot spend a presignature, and it stays usable for its owner", async () => {
    const pooled = take();
    const hash = sha256(randomBytes(8));
    const stolen = await post(h.baseUrl, STEP1, { msg: Array.from(hash), msgs_1: { presignature_id: pooled.id } }, bob.headers);
    expect(stolen.status).toBe(409);
    expect(stolen.body.code).toBe('PRESIGNATURE_NOT_AVAILABLE');
    const { output } = await signOneTrip(poster(h.baseUrl, alice.headers), pooled, hash);
    expect(recoverPublicKey(output, hash)).toBe(toHex(alice.key.publicKey));
  });

  it('a wrong client share (step1 or step2) or a different msg at step2: 400, session aborted, presignature stays consumed', async () => {
    for (const mode of ['step1', 'step2', 'msg'] as const) {
      const pooled = take();
      const hash = sha256(randomBytes(8));
      const share = signShareClient(pooled.presignature, hash).signature_share;
      const bad = `${share.slice(0, 62)}${share.slice(62) === '00' ? '01' : '00'}`;
      let res;
      let sessionId: string;
      if (mode === 'step1') {
        res = await post<{ session_id: string }>(h.baseUrl, STEP1, { msg: Array.from(hash), msgs_1: { presignature_id: pooled.id, signature_share: bad } }, alice.headers);
        sessionId = (await h.t.db.presignaturePoolItem.findUniqueOrThrow({ where: { id: pooled.id } })).consumedBySessionId!;
      } else {
        const s1 = await post<{ session_id: string }>(h.baseUrl, STEP1, { msg: Array.from(hash), msgs_1: { presignature_id: pooled.id } }, alice.headers);
        sessionId = s1.body.data!.session_id;
        const msg = mode === 'msg' ? Array.from(sha256(randomBytes(8))) : Array.from(hash);
        res = await post(h.baseUrl, STEP2, { session_id: sessionId, msg, msgs_1: { signature_share: mode === 'msg' ? share : bad } }, alice.headers);
      }
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_PROTOCOL_MESSAGE');
      expect(res.body.msg).toMatch(mode === 'msg' ? /msg differs/ : /does not verify/);
      const session = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } });
      expect(session).toMatchObject({ status: 'ABORTED', state: {} });
      expect(await h.t.db.presignaturePoolItem.findUniqueOrThrow({ where: { id: pooled.id } })).toMatchObject({ status: 'CONSUMED', material: Buffer.alloc(0) });
      expect(await h.t.db.signatureAuditLog.count({ where: { sessionId } })).toBe(0);
      // The right share now: refused, nothing reusable is left.
      const retry = await post(h.baseUrl, STEP2, { session_id: sessionId, msg: Array.from(hash), msgs_1: { signature_share: share } }, alice.headers);
      expect(retry.status).toBe(409);
      expect(retry.body.code).toBe('SESSION_NOT_ACTIVE');
    }
  });

  it('a step1 nobody finishes: the expiry sweeper ends it past its TTL and erases the sealed presignature', async () => {
    const stale = take();
    const fresh = take();
    const hash = sha256(randomBytes(8));
    const open = async (p: PooledPresignature) =>
      (await post<{ session_id: string }>(h.baseUrl, STEP1, { msg: Array.from(hash), msgs_1: { presignature_id: p.id } }, alice.headers)).body.data!.session_id;
    const [staleId, freshId] = [await open(stale), await open(fresh)];
    expect(JSON.stringify((await h.t.db.tssSession.findUniqueOrThrow({ where: { id: staleId } })).state)).toContain('presignature');
    await h.t.db.tssSession.update({ where: { id: staleId }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const sweeper = startExpirySweeper(sessionsRepo(h.t.db), createLogger('test', 'silent'), { intervalMs: 3_600_000 });
    try {
      // Two replicas sweeping at once end it once.
      const [a, b] = await Promise.all([sweeper.sweep(), sweeper.sweep()]);
      expect(a + b).toBeGreaterThanOrEqual(1);
    } finally {
      sweeper.stop();
    }
    const ended = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: staleId }, include: { stages: true } });
    expect(ended).toMatchObject({ status: 'EXPIRED', state: {} });
    expect(ended.stages.filter((st) => st.name === 'expired')).toHaveLength(1);
    expect(await h.t.db.tssSession.findUniqueOrThrow({ where: { id: freshId } })).toMatchObject({ status: 'ACTIVE' });
    const share = signShareClient(stale.presignature, hash).signature_share;
    const late = await post(h.baseUrl, STEP2, { session_id: staleId, msg: Array.from(hash), msgs_1: { signature_share: share } }, alice.headers);
    expect([late.status, late.body.code]).toEqual([410, 'SESSION_EXPIRED']);
  });

  it('abort after step1 ends the session; the presignature stays consumed', async () => {
    const pooled = take();
    const hash = sha256(randomBytes(8));
    const s1 = await post<{ session_id: string }>(h.baseUrl, STEP1, { msg: Array.from(hash), msgs_1: { presignature_id: pooled.id } }, alice.headers);
    const sessionId = s1.body.data!.session_id;
    expect((await post(h.baseUrl, '/tss/v1/session/abort', { session_id: sessionId }, bob.headers)).status).toBe(404);
    expect((await post(h.baseUrl, '/tss/v1/session/abort', { session_id: sessionId }, alice.headers)).status).toBe(200);
    const share = signShareClient(pooled.presignature, hash).signature_share;
    const after = await post(h.baseUrl, STEP2, { session_id: sessionId, msg: Array.from(hash), msgs_1: { signature_share: share } }, alice.headers);
    expect(after.body.code).toBe('SESSION_NOT_ACTIVE');
    expect(await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({ status: 'ABORTED', state: {} });
    expect((await post(h.baseUrl, STEP1, { msg: Array.from(hash), msgs_1: { presignature_id: pooled.id } }, alice.headers)).status).toBe(409);
  });

  it('validates msg and msgs_1 strictly: 400 with a clear message, nothing spent', async () => {
    const pooled = take();
    const good = Array.from(sha256(randomBytes(4)));
    const HASH = 'msg must be an array of 32 integers 0-255 (the 32-byte message hash)';
    const cases: [unknown, string][] = [
      [{ msgs_1: { presignature_id: pooled.id } }, 'msg is required'],
      [{ msg: good.slice(1), msgs_1: { presignature_id: pooled.id } }, HASH],
      [{ msg: [...good.slice(1), 256], msgs_1: { presignature_id: pooled.id } }, HASH],
      [{ msg: [...good.slice(1), '7'], msgs_1: { presignature_id: pooled.id } }, HASH],
      [{ msg: [...good.slice(1), 1.5], msgs_1: { presignature_id: pooled.id } }, HASH],
      [{ msg: toHex(Uint8Array.from(good)), msgs_1: { presignature_id: pooled.id } }, HASH],
      [{ msg: good }, 'msgs_1 is required'],
      [{ msg: good, msgs_1: {} }, 'msgs_1.presignature_id is required'],
      [{ msg: good, msgs_1: { presignature_id: 'nope' } }, 'msgs_1.presignature_id must be a UUID'],
      [{ msg: good, msgs_1: { presignature_id: pooled.id, signature_share: 'AB'.repeat(32) } }, 'msgs_1.signature_share must be 32 bytes of lowercase hex'],
      [{ msg: good, msgs_1: { presignature_id: pooled.id }, extra: 1 }, ''],
      [{ msg: good, msgs_1: { presignature_id: pooled.id, extra: 1 } }, 'msgs_1 may only hold presignature_id, signature_share'],
      // A client may name the session (spec §2), with a UUID (sign-completion.test.ts).
      [{ session_id: 'nope', msg: good, msgs_1: { presignature_id: pooled.id } }, 'session_id must be a UUID'],
    ];
    for (const [body, msg] of cases) {
      const res = await post(h.baseUrl, STEP1, body, alice.headers);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body.code).toBe('INVALID_REQUEST');
      if (msg) expect(res.body.msg).toBe(msg);
    }
    expect(await h.t.db.presignaturePoolItem.findUniqueOrThrow({ where: { id: pooled.id } })).toMatchObject({ status: 'UNUSED' });
    // The one-call route needs the client share.
    const noShare = await post(h.baseUrl, '/tss/v1/sign', { msg: good, msgs_1: { presignature_id: pooled.id } }, alice.headers);
    expect([noShare.status, noShare.body.msg]).toEqual([400, 'msgs_1.signature_share is required']);
    expect(await h.t.db.presignaturePoolItem.findUniqueOrThrow({ where: { id: pooled.id } })).toMatchObject({ status: 'UNUSED' });
    const missingJwt = await post(h.baseUrl, STEP1, { msg: good, msgs_1: { presignature_id: pooled.id } }, { 'x-api-key': h.apiKey });
    expect(missingJwt.status).toBe(401);
    const missingKey = await post(h.baseUrl, STEP1, { msg: good, msgs_1: { presignature_id: pooled.id } }, { authorization: alice.headers.authorization! });
    expect(missingKey.status).toBe(401);
    const { output } = await signOneTrip(poster(h.baseUrl, alice.headers), pooled, Uint8Array.from(good));
    expect(recoverPublicKey(output, Uint8Array.from(good))).toBe(toHex(alice.key.publicKey));
  });

  it('a user without a secp256k1 wallet gets WALLET_NOT_FOUND; the kill switch gives SIGNING_DISABLED', async () => {
    const pooled = take();
    const hash = Array.from(sha256(randomBytes(4)));
    await h.t.db.tssActivationSetting.upsert({ where: { id: 1 }, create: { id: 1, signingEnabled: false }, update: { signingEnabled: false } });
    try {
      const off = await post(h.baseUrl, STEP1, { msg: hash, msgs_1: { presignature_id: pooled.id } }, alice.headers);
      expect(off.body).toEqual({ success: false, code: 'SIGNING_DISABLED', msg: 'Signing is disabled' });
      const offTriples = await post(h.baseUrl, '/tss/v1/triples', { msg: { type: 'triples/1' } }, alice.headers);
      expect(offTriples.body.code).toBe('SIGNING_DISABLED');
    } finally {
      await h.t.db.tssActivationSetting.update({ where: { id: 1 }, data: { signingEnabled: true } });
    }
    expect(await h.t.db.presignaturePoolItem.findUniqueOrThrow({ where: { id: pooled.id } })).toMatchObject({ status: 'UNUSED' });
    await h.t.db.wallet.delete({ where: { id: bob.walletId } });
    const none = await post(h.baseUrl, STEP1, { msg: hash, msgs_1: { presignature_id: pooled.id } }, bob.headers);
    expect(none.body.code).toBe('WALLET_NOT_FOUND');
    const noneTriples = await generateTriples(via(h.baseUrl, bob), 2).catch((e: Error) => e.message);
    expect(noneTriples).toMatch(/WALLET_NOT_FOUND/);
  });
});
