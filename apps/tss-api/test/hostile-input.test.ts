import { tripleGenClientStart, tripleGenClientStep } from '@svc/crypto/ecdsa';
import { createEcdsaUser, type EcdsaUser } from './support/ecdsa-user.js';
import { startHarness, type Harness } from './support/harness.js';
import { post } from './support/wallet-client.js';
import { createWalletUser, type WalletUser } from './support/wallet-user.js';

/*
 * The repros of issue 14, pinned: each answered 500 before the field vocabulary
 * (packages/http fields.ts), the transport error mapping (packages/envelope) and the
 * triples conflict path (ecdsa-triples/repo.ts).
 */

const UUID = '00000000-0000-4000-8000-000000000000';

async function raw(h: Harness, path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${h.baseUrl}${path}`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as { success: boolean; code?: string; msg?: string } };
}

describe('hostile input answers 4xx in the envelope (issue 14)', () => {
  let h: Harness;
  let ecdsa: EcdsaUser;
  let ed: WalletUser;

  beforeAll(async () => {
    h = await startHarness();
    [ecdsa, ed] = await Promise.all([createEcdsaUser(h), createWalletUser(h)]);
  }, 120_000);
  afterAll(() => h.stop());

  it('user/check with auth_type ["EMAIL"] (no login needed) -> 400', async () => {
    const res = await post(h.baseUrl, '/tss/v1/user/check', { email: 'a@b.c', auth_type: ['EMAIL'] }, { 'x-api-key': h.apiKey });
    expect(res).toEqual({ status: 400, body: { success: false, code: 'INVALID_REQUEST', msg: expect.stringMatching(/^auth_type must be one of/) } });
  });

  // Found by the 20,000-request campaign (seed 20000): PostgreSQL text refuses NUL; UTF-8 has no unpaired surrogate.
  it.each([
    ['/tss/v1/user/check', { email: 'a\u0000b' }],
    ['/tss/v1/user/email/request_code', { email: '\ud800' }],
    ['/tss/v1/user/email/verify_code', { email: '\ud800', code: '966102' }],
  ])('%s with %j -> 400', async (path, body) => {
    const res = await post(h.baseUrl, path, body, { 'x-api-key': h.apiKey });
    expect(res).toEqual({ status: 400, body: { success: false, code: 'INVALID_REQUEST', msg: 'email must be valid text (no NUL, no unpaired surrogate)' } });
  });

  it.each([
    ['/tss/v2/sign_ed25519/round2', { session_id: [UUID], commitment1: {} }],
    ['/tss/v1/session/abort', { session_id: [UUID] }],
    ['/tss/v1/triples', { session_id: [UUID], msg: {} }],
    ['/tss/v1/presign', { session_id: [UUID], msg: {} }],
    ['/tss/v1/sign/step2', { session_id: [UUID], msg: Array(32).fill(0), msgs_1: { signature_share: '00'.repeat(32) } }],
  ])('%s with session_id ["<uuid>"] -> 400 session_id must be a UUID', async (path, body) => {
    const res = await post(h.baseUrl, path, body, ecdsa.headers);
    expect(res).toEqual({ status: 400, body: { success: false, code: 'INVALID_REQUEST', msg: 'session_id must be a UUID' } });
  });

  it('/tss/v1/sign with msgs_1.presignature_id ["<id>"] -> 400', async () => {
    const res = await post(h.baseUrl, '/tss/v1/sign', { msg: Array(32).fill(0), msgs_1: { presignature_id: [UUID], signature_share: '00'.repeat(32) } }, ecdsa.headers);
    expect(res).toEqual({ status: 400, body: { success: false, code: 'INVALID_REQUEST', msg: 'msgs_1.presignature_id must be a UUID' } });
  });

  it.each(['gzip', 'deflate', 'br'])('Content-Encoding: %s over a body that is not compressed -> 400 on user/check and round1', async (encoding) => {
    const headers = { 'content-type': 'application/json', 'content-encoding': encoding, 'x-api-key': h.apiKey };
    expect(await raw(h, '/tss/v1/user/check', '{"email":"a@b.c"}', headers)).toEqual({ status: 400, body: { success: false, code: 'INVALID_REQUEST', msg: expect.any(String) } });
    const round1 = await raw(h, '/tss/v2/sign_ed25519/round1', '{"msg":"00"}', { ...headers, authorization: ed.headers.authorization! });
    expect(round1).toEqual({ status: 400, body: { success: false, code: 'INVALID_REQUEST', msg: expect.any(String) } });
  });

  it('a triples run that reuses a protocol session id: 409 PROTOCOL_SESSION_REUSED at call 3, the session ended, nothing stored', async () => {
    const start = tripleGenClientStart({ count: 2 });
    const run = async () => {
      // A copy: the client marks a stepped state superseded in place.
      let state = structuredClone(start.state);
      let outgoing: unknown = start.outgoing;
      let sessionId: string | undefined;
      for (let call = 1; ; call++) {
        const res = await post<{ session_id: string; msg: unknown; done: boolean }>(h.baseUrl, '/tss/v1/triples', { ...(sessionId ? { session_id: sessionId } : {}), msg: outgoing }, ecdsa.headers);
        if (res.status !== 200) return { call, sessionId, res };
        sessionId = res.body.data!.session_id;
        const next = tripleGenClientStep(state, res.body.data!.msg);
        if (next.done) return { call, sessionId, res };
        state = next.state;
        outgoing = next.outgoing;
      }
    };
    const first = await run();
    expect(first).toMatchObject({ call: 3, res: { status: 200, body: { data: { done: true } } } });
    const stored = await h.t.db.triplePoolItem.count({ where: { walletId: ecdsa.walletId } });

    const second = await run();
    expect(second.call).toBe(3);
    expect(second.res).toEqual({ status: 409, body: { success: false, code: 'PROTOCOL_SESSION_REUSED', msg: expect.any(String) } });
    expect(await h.t.db.tssSession.findUnique({ where: { id: second.sessionId! } })).toMatchObject({ status: 'ABORTED' });
    expect(await h.t.db.triplePoolItem.count({ where: { walletId: ecdsa.walletId } })).toBe(stored);

    // A retry of the last call finds the session ended: a 4xx again, never a 500.
    const retry = await post(h.baseUrl, '/tss/v1/triples', { session_id: second.sessionId, msg: {} }, ecdsa.headers);
    expect(retry.status).toBeGreaterThanOrEqual(400);
    expect(retry.status).toBeLessThan(500);
  });
});
