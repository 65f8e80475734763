import { createHash, randomUUID } from 'node:crypto';
import { tripleGenClientStart, tripleGenClientStep } from '@svc/crypto/ecdsa';
import { startHarness, type Harness } from './support/harness.js';
import { newSecp256k1Key } from './support/ecdsa-client.js';
import { createEcdsaUser, type EcdsaUser } from './support/ecdsa-user.js';
import { post, type Envelope } from './support/wallet-client.js';

interface CheckResult {
  exists: boolean;
  needs_reshare: boolean;
  keyshare_node_meta: { threshold: number; nodes: { name: string; endpoint: string; wallet_status: string; node_status?: string }[] };
}

/*
 * Limits that must hold for the service as a whole, not per replica: every case runs against
 * two app instances on one PostgreSQL, alternating between them.
 */
const OPEN_MAX = 3;
const TRIPLES_PER_MINUTE = 5;
const KEYGEN_PER_HOUR = 2;
const CODES_PER_EMAIL = 3;
const CHECKS_PER_MINUTE = 6;
const CHECKS_PER_EMAIL = 3;

describe('limits shared by replicas (two instances, one PostgreSQL)', () => {
  let h: Harness;
  let second: { baseUrl: string; close(): Promise<void> };
  let instances: string[];
  const at = (i: number) => instances[i % 2]!;
  beforeAll(async () => {
    h = await startHarness({
      TSS_OPEN_SESSIONS_MAX: String(OPEN_MAX),
      TRIPLES_RATE_LIMIT_PER_MINUTE: String(TRIPLES_PER_MINUTE),
      KEYGEN_RATE_LIMIT_PER_HOUR: String(KEYGEN_PER_HOUR),
      EMAIL_CODE_RATE_LIMIT_PER_EMAIL: String(CODES_PER_EMAIL),
      USER_CHECK_RATE_LIMIT_PER_MINUTE: String(CHECKS_PER_MINUTE),
      USER_CHECK_RATE_LIMIT_PER_EMAIL_PER_MINUTE: String(CHECKS_PER_EMAIL),
    });
    second = await h.variant({});
    instances = [h.baseUrl, second.baseUrl];
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await h?.stop();
  });

  const triples1 = (u: EcdsaUser, i: number) => post<{ session_id: string; msg: unknown }>(at(i), '/tss/v1/triples', { msg: tripleGenClientStart({ count: 2 }).outgoing }, u.headers);
  const abort = (u: EcdsaUser, sessionId: string) => post(h.baseUrl, '/tss/v1/session/abort', { session_id: sessionId }, u.headers);

  it(`at most ${OPEN_MAX} open triples/presign runs per wallet, counted exactly under concurrency; a finished or aborted run frees its place`, async () => {
    const u = await createEcdsaUser(h);
    const answers = await Promise.all(Array.from({ length: OPEN_MAX + 1 }, (_, i) => triples1(u, i)));
    const opened = answers.filter((a) => a.status === 200);
    expect(opened).toHaveLength(OPEN_MAX);
    const refused = answers.filter((a) => a.status !== 200) as Envelope[];
    expect(refused.map((r) => [r.status, r.body])).toEqual([
      [429, { success: false, code: 'TOO_MANY_OPEN_SESSIONS', msg: `Too many open triples/presign runs for this wallet (at most ${OPEN_MAX}); finish or abort one first` }],
    ]);
    // Nothing stored for the refused run.
    expect(await h.t.db.tssSession.count({ where: { walletId: u.walletId, kind: 'TRIPLES' } })).toBe(OPEN_MAX);
    expect((await abort(u, opened[0]!.body.data!.session_id)).status).toBe(200);
    expect((await triples1(u, 1)).status).toBe(200);
  });

  it(`triples/1 at most ${TRIPLES_PER_MINUTE} times a minute per user across both instances; later steps of an open run are not counted`, async () => {
    const u = await createEcdsaUser(h);
    const other = await createEcdsaUser(h);
    let open: { sessionId: string; state: unknown; msg: unknown } | undefined;
    for (let i = 0; i < TRIPLES_PER_MINUTE; i++) {
      const start = tripleGenClientStart({ count: 2 });
      const r = await post<{ session_id: string; msg: unknown }>(at(i), '/tss/v1/triples', { msg: start.outgoing }, u.headers);
      expect(r.status).toBe(200);
      if (i < TRIPLES_PER_MINUTE - 1) expect((await abort(u, r.body.data!.session_id)).status).toBe(200);
      else {
        const s1 = tripleGenClientStep(start.state, r.body.data!.msg);
        if (s1.done) throw new Error('unexpected end');
        open = { sessionId: r.body.data!.session_id, state: s1.state, msg: s1.outgoing };
      }
    }
    const limited = await triples1(u, TRIPLES_PER_MINUTE);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    // Another user is not affected; the open run goes on.
    expect((await triples1(other, 0)).status).toBe(200);
    const step2 = await post(at(1), '/tss/v1/triples', { session_id: open!.sessionId, msg: open!.msg }, u.headers);
    expect(step2.status).toBe(200);
  });

  it(`user/check asks the nodes at most ${CHECKS_PER_EMAIL} times a minute per email, then answers from the database (no lockout); at most ${CHECKS_PER_MINUTE} calls per client address; across both instances`, async () => {
    const check = (i: number, email: string, from: string) => post<CheckResult>(at(i), '/tss/v1/user/check', { email }, { 'x-forwarded-for': from });
    const owner = await createEcdsaUser(h);
    const { email } = await h.t.db.user.findUniqueOrThrow({ where: { id: owner.userId } });
    const nodes = (r: Envelope<CheckResult>) => r.body.data!.keyshare_node_meta.nodes;
    // Within the email's budget, from other addresses: the nodes are asked (here they are down).
    let asked: Envelope<CheckResult> | undefined;
    for (let i = 0; i < CHECKS_PER_EMAIL; i++) {
      asked = await check(i, i === 1 ? email.toUpperCase() : email, `198.51.100.${i + 1}`);
      expect([asked.status, nodes(asked).map((n) => n.node_status)]).toEqual([200, ['UNREACHABLE', 'UNREACHABLE', 'UNREACHABLE']]);
    }
    // Past it, the owner from its own address still gets its answer: the recorded statuses, no node asked.
    const past = await check(CHECKS_PER_EMAIL, ` ${email} `, '198.51.100.99');
    expect(past.status).toBe(200);
    expect(nodes(past)).toEqual(nodes(asked!).map((n) => ({ ...n, node_status: 'NOT_CHECKED' })));
    expect(past.body.data).toMatchObject({ exists: true, needs_reshare: asked!.body.data!.needs_reshare });
    // One address asking about many emails: the address's limit.
    const from = '203.0.113.50';
    for (let i = 0; i < CHECKS_PER_MINUTE; i++) expect((await check(i, `other-${i}-${randomUUID()}@example.com`, from)).status).toBe(200);
    expect((await check(0, `other-last-${randomUUID()}@example.com`, from)).status).toBe(429);
    expect((await check(1, `fresh-${randomUUID()}@example.com`, '203.0.113.51')).status).toBe(200);
  });

  it(`keygen at most ${KEYGEN_PER_HOUR} times an hour per login identity across both instances`, async () => {
    const sub = `limited-${randomUUID()}`;
    const keygen = async (i: number) => {
      const idToken = await h.google.issue({ sub, email: `${sub}@example.com` });
      return post(at(i), '/tss/v1/keygen', { secp256k1: newSecp256k1Key().keygenBody }, { authorization: `Bearer ${idToken}`, 'x-api-key': h.apiKey });
    };
    expect((await keygen(0)).status).toBe(200);
    expect((await keygen(1)).body.code).toBe('WALLET_ALREADY_EXISTS');
    const limited = await keygen(0);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
  });

  it(`email login codes: at most ${CODES_PER_EMAIL} per address and window across both instances`, async () => {
    const email = `shared-${randomUUID()}@example.com`;
    for (let i = 0; i < CODES_PER_EMAIL; i++) expect((await post(at(i), '/tss/v1/user/email/request_code', { email })).status).toBe(200);
    for (const i of [0, 1]) {
      const limited = await post(at(i), '/tss/v1/user/email/request_code', { email });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('RATE_LIMITED');
    }
    expect(await h.t.db.rateLimitCounter.findUnique({ where: { key: `emailCodeRateLimit:email:${createHash('sha256').update(email).digest('hex')}` } })).toMatchObject({ hits: CODES_PER_EMAIL + 2 });
  });
});
