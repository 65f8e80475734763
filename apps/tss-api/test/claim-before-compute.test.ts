import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import type * as Crypto from '@svc/crypto/ecdsa';

/*
 * The attack of issue 13, replayed: a malicious client sends many variants of one protocol step
 * at once, split across two app instances on one PostgreSQL, hoping that several of them are
 * evaluated against the same stored server state (each evaluation of triples/2 answers one bit
 * of the server's OT-extension secret Δ). Claim, then compute means at most one is evaluated.
 *
 * The server's step functions are wrapped (same behaviour, plus a count of evaluations per
 * message type); the wrap is the test's hook, the service code is unchanged.
 */
const actual = await import('@svc/crypto/ecdsa');
const evaluations = new Map<string, number>();
const count = (what: string) => evaluations.set(what, (evaluations.get(what) ?? 0) + 1);
const typeOf = (msg: unknown) => String((msg as { type?: unknown } | null)?.type);
jest.unstable_mockModule('@svc/crypto/ecdsa', () => ({
  ...actual,
  tripleGenServerStep: ((state, msg) => {
    count(typeOf(msg));
    return actual.tripleGenServerStep(state, msg);
  }) satisfies typeof Crypto.tripleGenServerStep,
  presignServerStep: ((state, msg) => {
    count(typeOf(msg));
    return actual.presignServerStep(state, msg);
  }) satisfies typeof Crypto.presignServerStep,
  signCombine: ((presignature, hash, peerShare, publicKey) => {
    count('sign');
    return actual.signCombine(presignature, hash, peerShare, publicKey);
  }) satisfies typeof Crypto.signCombine,
}));

const { presignClientStart, presignClientStep, tripleGenClientStart, tripleGenClientStep, signShareClient } = actual;
const { startHarness } = await import('./support/harness.js');
const { generateTriples, fillPool, poster } = await import('./support/ecdsa-client.js');
const { createEcdsaUser, via } = await import('./support/ecdsa-user.js');
const { post } = await import('./support/wallet-client.js');
const { claimSessionState } = await import('../src/kernel/sessions/claim.js');
const { sessionsRepo } = await import('../src/kernel/sessions/repo.js');
const { startExpirySweeper } = await import('../src/modules/sessions/expiry-sweeper.js');
const { createLogger } = await import('@svc/http');
type Harness = Awaited<ReturnType<typeof startHarness>>;
type EcdsaUser = Awaited<ReturnType<typeof createEcdsaUser>>;
type Envelope = Awaited<ReturnType<typeof post>>;

const TAMPERED = 64;
const BASE_OTS = 128;

/** The honest triples/2 body with one column of the OT-extension matrix U flipped (bit 0 of its first byte). */
function flipUColumn(msg: Record<string, unknown>, column: number): Record<string, unknown> {
  const u = Buffer.from(msg.ot_u as string, 'hex');
  const columnBytes = u.length / BASE_OTS;
  u[column * columnBytes]! ^= 1;
  return { ...msg, ot_u: u.toString('hex') };
}

/** One hex digit of a scalar blob changed. */
function flipHex(v: string, at: number): string {
  const i = at % v.length;
  return `${v.slice(0, i)}${v[i] === '0' ? '1' : '0'}${v.slice(i + 1)}`;
}

/** Sends every body at once, alternately to each instance; the honest one lands in the middle. */
async function storm(instances: string[], u: EcdsaUser, path: string, bodies: unknown[]): Promise<Envelope[]> {
  return Promise.all(bodies.map((body, i) => post(instances[i % instances.length]!, path, body, u.headers)));
}

describe('claim, then compute: concurrent variants of one step across two replicas', () => {
  let h: Harness;
  let second: { baseUrl: string; close(): Promise<void> };
  let instances: string[];
  let u: EcdsaUser;
  beforeAll(async () => {
    h = await startHarness({ TSS_SESSION_TTL_SECONDS: '120', ECDSA_PRESIGNATURE_POOL_MAX: '8', ECDSA_TRIPLE_POOL_MAX: '16' });
    second = await h.variant({});
    instances = [h.baseUrl, second.baseUrl];
    u = await createEcdsaUser(h);
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await h?.stop();
  });
  beforeEach(() => evaluations.clear());

  async function triplesAtStep2() {
    const start = tripleGenClientStart({ count: 2 });
    const r1 = await post<{ session_id: string; msg: unknown }>(h.baseUrl, '/tss/v1/triples', { msg: start.outgoing }, u.headers);
    expect(r1.status).toBe(200);
    const s1 = tripleGenClientStep(start.state, r1.body.data!.msg);
    if (s1.done) throw new Error('triples ended early');
    return { sessionId: r1.body.data!.session_id, msg: s1.outgoing as unknown as Record<string, unknown> };
  }

  async function expectAbortedAndErased(sessionId: string) {
    const row = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId }, include: { stages: true } });
    expect(row.status).toBe('ABORTED');
    expect(row.state).toEqual({});
    expect(row.stages.some((s) => s.name.startsWith('aborted:'))).toBe(true);
  }

  it('triples/2: 64 bodies with one U column flipped plus the honest one: one evaluated, one answer that is not 409', async () => {
    const { sessionId, msg } = await triplesAtStep2();
    const bodies = Array.from({ length: TAMPERED }, (_, j) => ({ session_id: sessionId, msg: flipUColumn(msg, j) }));
    bodies.splice(TAMPERED / 2, 0, { session_id: sessionId, msg });
    evaluations.clear();
    const answers = await storm(instances, u, '/tss/v1/triples', bodies);

    expect(evaluations.get('triples/2') ?? 0).toBe(1);
    const answered = answers.filter((a) => a.status !== 409);
    expect(answered).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toMatch(/^SESSION_(STATE_CONSUMED|NOT_ACTIVE)$/);
    const winner = answered[0]!;
    if (winner.status === 200) {
      // The honest body won: the run goes on from the state it wrote back.
      expect(answers.indexOf(winner)).toBe(TAMPERED / 2);
      const row = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } });
      expect(row.status).toBe('ACTIVE');
      expect((row.state as { next_step: number }).next_step).toBe(3);
    } else {
      expect(winner.body.code).toBe('INVALID_PROTOCOL_MESSAGE');
      await expectAbortedAndErased(sessionId);
    }
  });

  it('triples/2: 64 tampered bodies alone: the first claim fails the check, aborts the run and erases its state; nothing else is evaluated', async () => {
    const { sessionId, msg } = await triplesAtStep2();
    evaluations.clear();
    const answers = await storm(instances, u, '/tss/v1/triples', Array.from({ length: TAMPERED }, (_, j) => ({ session_id: sessionId, msg: flipUColumn(msg, j) })));

    expect(evaluations.get('triples/2') ?? 0).toBe(1);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.code)).toEqual(['INVALID_PROTOCOL_MESSAGE']);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(TAMPERED - 1);
    await expectAbortedAndErased(sessionId);
    // The honest body afterwards finds nothing to evaluate either.
    expect((await post(second.baseUrl, '/tss/v1/triples', { session_id: sessionId, msg }, u.headers)).body.code).toBe('SESSION_NOT_ACTIVE');
    expect(evaluations.get('triples/2')).toBe(1);
  });

  it('presign/2: tampered variants plus the honest one: one evaluated, one answer that is not 409', async () => {
    const triples = await generateTriples(via(h.baseUrl, u), 2);
    const start = presignClientStart({ keyShare: u.key.keyShare, triples: [[triples[0]!, triples[1]!]] });
    const r1 = await post<{ session_id: string; msg: unknown }>(h.baseUrl, '/tss/v1/presign', { msg: start.outgoing }, u.headers);
    expect(r1.status).toBe(200);
    const s1 = presignClientStep(start.state, r1.body.data!.msg);
    if (s1.done) throw new Error('presign ended early');
    const msg = s1.outgoing as unknown as Record<string, string>;
    const sessionId = r1.body.data!.session_id;
    const bodies: unknown[] = Array.from({ length: TAMPERED }, (_, j) => ({
      session_id: sessionId,
      msg: j % 2 ? { ...msg, alpha: flipHex(msg.alpha!, 2 * j + 1) } : { ...msg, beta: flipHex(msg.beta!, 2 * j + 1) },
    }));
    bodies.splice(TAMPERED / 2, 0, { session_id: sessionId, msg });
    evaluations.clear();
    const answers = await storm(instances, u, '/tss/v1/presign', bodies);

    expect(evaluations.get('presign/2') ?? 0).toBe(1);
    const answered = answers.filter((a) => a.status !== 409);
    expect(answered).toHaveLength(1);
    if (answered[0]!.status === 200) {
      expect(answers.indexOf(answered[0]!)).toBe(TAMPERED / 2);
      expect(await h.t.db.presignaturePoolItem.count({ where: { walletId: u.walletId, status: 'UNUSED' } })).toBe(1);
    } else {
      expect(answered[0]!.body.code).toBe('INVALID_PROTOCOL_MESSAGE');
      await expectAbortedAndErased(sessionId);
    }
  });

  it('sign step2: 64 wrong signature shares plus the right one: one evaluated, one answer that is not 409', async () => {
    const [pooled] = await fillPool(via(h.baseUrl, u), u.key.keyShare, 1);
    const hash = randomBytes(32);
    const p = poster(h.baseUrl, u.headers);
    const s1 = await p<{ session_id: string }>('/tss/v1/sign/step1', { msg: Array.from(hash), msgs_1: { presignature_id: pooled!.id } });
    expect(s1.status).toBe(200);
    const sessionId = s1.body.data!.session_id;
    const share = signShareClient(pooled!.presignature, hash).signature_share;
    const bodies: unknown[] = Array.from({ length: TAMPERED }, (_, j) => ({
      session_id: sessionId,
      msg: Array.from(hash),
      msgs_1: { signature_share: flipHex(share, j) },
    }));
    bodies.splice(TAMPERED / 2, 0, { session_id: sessionId, msg: Array.from(hash), msgs_1: { signature_share: share } });
    evaluations.clear();
    const answers = await storm(instances, u, '/tss/v1/sign/step2', bodies);

    expect(evaluations.get('sign') ?? 0).toBe(1);
    const answered = answers.filter((a) => a.status !== 409);
    expect(answered).toHaveLength(1);
    if (answered[0]!.status === 200) {
      expect(answers.indexOf(answered[0]!)).toBe(TAMPERED / 2);
      expect((await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe('COMPLETED');
    } else {
      expect(answered[0]!.body.code).toBe('INVALID_PROTOCOL_MESSAGE');
      await expectAbortedAndErased(sessionId);
    }
  });

  it('a replica that dies holding a claim: the run is unusable at once (nothing left to claim), and the sweeper aborts it', async () => {
    const { sessionId, msg } = await triplesAtStep2();
    // What the dying replica did before it crashed: the claim, and nothing after it.
    const claimed = await claimSessionState(h.t.db)({ sessionId, userId: u.userId, kind: 'TRIPLES', secret: 'protocol', stepAtMost: 2 });
    expect(claimed?.state).toHaveProperty('protocol');
    evaluations.clear();
    const retry = await post(second.baseUrl, '/tss/v1/triples', { session_id: sessionId, msg }, u.headers);
    expect(retry.body.code).toBe('SESSION_STATE_CONSUMED');
    expect(evaluations.get('triples/2') ?? 0).toBe(0);
    const row = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row.state).not.toHaveProperty('protocol');

    const sweeper = startExpirySweeper(sessionsRepo(h.t.db), createLogger('test', 'silent'), { intervalMs: 3_600_000, claimTimeoutSeconds: 0 });
    try {
      expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
    } finally {
      sweeper.stop();
    }
    const after = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId }, include: { stages: true } });
    expect(after.status).toBe('ABORTED');
    expect(after.state).toEqual({});
    expect(after.stages.map((x) => x.name)).toContain('aborted:claim_abandoned');
  });
});
