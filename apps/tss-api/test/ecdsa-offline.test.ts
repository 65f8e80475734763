import { createHash, randomBytes } from 'node:crypto';
import { toHex } from '@svc/crypto';
import { presignClientStart, presignClientStep, tripleGenClientStart, tripleGenClientStep, type Presignature, type Triple } from '@svc/crypto/ecdsa';
import { ShareCipher } from '@svc/share-cipher';
import { startHarness, type Harness } from './support/harness.js';
import { fillPool, generateTriples, poster, presign, recoverPublicKey, signTwoSteps, verifySha256WithNode } from './support/ecdsa-client.js';
import { createEcdsaUser, via, type EcdsaUser } from './support/ecdsa-user.js';
import { post } from './support/wallet-client.js';
import { openJsonValue, openState, presignatureAad, tripleAad } from '../src/kernel/ecdsa/sealed-material.js';

/** Flips one hex digit in the middle of the first string found under `field` (deep). */
function tamper(msg: unknown, field: string): unknown {
  const copy = structuredClone(msg) as Record<string, unknown>;
  const flip = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const i = Math.floor(v.length / 2);
      return `${v.slice(0, i)}${v[i] === '0' ? '1' : '0'}${v.slice(i + 1)}`;
    }
    if (Array.isArray(v)) return [flip(v[0]), ...v.slice(1)];
    throw new Error(`cannot tamper ${field}`);
  };
  if (!(field in copy)) throw new Error(`no field ${field} in ${Object.keys(copy).join()}`);
  copy[field] = flip(copy[field]);
  return copy;
}

describe('ECDSA offline protocols: triples and presign steps', () => {
  let h: Harness;
  let alice: EcdsaUser;
  let bob: EcdsaUser;
  beforeAll(async () => {
    h = await startHarness({ TSS_SESSION_TTL_SECONDS: '120', ECDSA_PRESIGNATURE_POOL_MAX: '6', ECDSA_TRIPLE_POOL_MAX: '12' });
    [alice, bob] = await Promise.all([createEcdsaUser(h), createEcdsaUser(h)]);
  });
  afterAll(() => h.stop());

  it('two tss-api instances on one database: every step of triples, presign and sign alternates between them', async () => {
    const other = await h.variant({});
    try {
      const alternate = (step: number) => poster(step % 2 === 1 ? h.baseUrl : other.baseUrl, alice.headers);
      const pooled = await fillPool(alternate, alice.key.keyShare, 2);
      for (const p of pooled) {
        const message = randomBytes(20);
        const hash = new Uint8Array(createHash('sha256').update(message).digest());
        const { output } = await signTwoSteps(alternate, p, hash);
        expect(verifySha256WithNode(output, message, alice.key.publicKey)).toBe(true);
        expect(recoverPublicKey(output, hash)).toBe(toHex(alice.key.publicKey));
      }
    } finally {
      await other.close();
    }
  });

  it('a replayed triples step is refused (409) and does not disturb the run; another user gets 404', async () => {
    const start = tripleGenClientStart({ count: 2 });
    const r1 = await post<{ session_id: string; msg: unknown }>(h.baseUrl, '/tss/v1/triples', { msg: start.outgoing }, alice.headers);
    const sessionId = r1.body.data!.session_id;
    const s1 = tripleGenClientStep(start.state, r1.body.data!.msg);
    if (s1.done) throw new Error('unexpected');
    const body = { session_id: sessionId, msg: s1.outgoing };
    expect((await post(h.baseUrl, '/tss/v1/triples', body, bob.headers)).body.code).toBe('SESSION_NOT_FOUND');
    const [a, b] = await Promise.all([post<{ msg: unknown }>(h.baseUrl, '/tss/v1/triples', body, alice.headers), post<{ msg: unknown }>(h.baseUrl, '/tss/v1/triples', body, alice.headers)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const won = a.status === 200 ? a : b;
    expect((a.status === 409 ? a : b).body.code).toBe('SESSION_STATE_CONSUMED');
    expect((await post(h.baseUrl, '/tss/v1/triples', body, alice.headers)).body.code).toBe('SESSION_STATE_CONSUMED');
    const s2 = tripleGenClientStep(s1.state, won.body.data!.msg);
    if (s2.done) throw new Error('unexpected');
    const r3 = await post<{ msg: unknown; done: boolean }>(h.baseUrl, '/tss/v1/triples', { session_id: sessionId, msg: s2.outgoing }, alice.headers);
    expect(r3.body.data!.done).toBe(true);
    expect(tripleGenClientStep(s2.state, r3.body.data!.msg).done).toBe(true);
    const session = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId }, include: { stages: true } });
    expect(session.stages.map((s) => s.name).sort()).toEqual(['triples/1', 'triples/2', 'triples/3']);
    // Reserved at 1, triples/1 written at 2; each later step bumps it twice (the claim, then the write-back).
    expect(session.stateVersion).toBe(6);
  });

  it('tampered triples/2 or triples/3: 400, session aborted with its state erased, no triple stored', async () => {
    for (const [atStep, field] of [[2, 'proofs_e'], [3, 'shares_c']] as const) {
      const before = await h.t.db.triplePoolItem.count({ where: { walletId: bob.walletId } });
      const start = tripleGenClientStart({ count: 2 });
      let state = start.state;
      let outgoing: unknown = start.outgoing;
      let sessionId: string | undefined;
      for (let step = 1; step <= atStep; step++) {
        const msg = step === atStep ? tamper(outgoing, field) : outgoing;
        const res = await post<{ session_id: string; msg: unknown }>(h.baseUrl, '/tss/v1/triples', { ...(sessionId ? { session_id: sessionId } : {}), msg }, bob.headers);
        if (step === atStep) {
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('INVALID_PROTOCOL_MESSAGE');
          expect(res.body.msg).toMatch(new RegExp(`^triples/${atStep} refused: `));
          break;
        }
        sessionId = res.body.data!.session_id;
        const next = tripleGenClientStep(state, res.body.data!.msg);
        if (next.done) throw new Error('unexpected');
        state = next.state;
        outgoing = next.outgoing;
      }
      expect(await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId! } })).toMatchObject({ status: 'ABORTED', state: {} });
      expect(await h.t.db.triplePoolItem.count({ where: { walletId: bob.walletId } })).toBe(before);
      const again = await post(h.baseUrl, '/tss/v1/triples', { session_id: sessionId, msg: outgoing }, bob.headers);
      expect(again.body.code).toBe('SESSION_NOT_ACTIVE');
    }
    const bad1 = await post(h.baseUrl, '/tss/v1/triples', { msg: { type: 'triples/1', v: 1 } }, bob.headers);
    expect(bad1.status).toBe(400);
    expect(bad1.body.code).toBe('INVALID_PROTOCOL_MESSAGE');
  });

  it('tampered presign/1 or presign/2: 400, session aborted, its triples stay consumed, no presignature stored', async () => {
    for (const [atStep, field] of [[1, 'e_prime'], [2, 'alpha']] as const) {
      const triples = await generateTriples(via(h.baseUrl, bob), 2);
      const start = presignClientStart({ keyShare: bob.key.keyShare, triples: [[triples[0]!, triples[1]!]] });
      let sessionId: string;
      let res;
      if (atStep === 1) {
        res = await post(h.baseUrl, '/tss/v1/presign', { msg: tamper(start.outgoing, field) }, bob.headers);
        sessionId = (await h.t.db.triplePoolItem.findFirstOrThrow({ where: { walletId: bob.walletId, status: 'CONSUMED' }, orderBy: { consumedAt: 'desc' } })).consumedBySessionId!;
      } else {
        const r1 = await post<{ session_id: string; msg: unknown }>(h.baseUrl, '/tss/v1/presign', { msg: start.outgoing }, bob.headers);
        sessionId = r1.body.data!.session_id;
        const s1 = presignClientStep(start.state, r1.body.data!.msg);
        if (s1.done) throw new Error('unexpected');
        res = await post(h.baseUrl, '/tss/v1/presign', { session_id: sessionId, msg: tamper(s1.outgoing, field) }, bob.headers);
      }
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_PROTOCOL_MESSAGE');
      expect(await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({ kind: 'PRESIGN', status: 'ABORTED', state: {} });
      const consumed = await h.t.db.triplePoolItem.findMany({ where: { consumedBySessionId: sessionId } });
      expect(consumed).toHaveLength(2);
      for (const t of consumed) expect(t).toMatchObject({ status: 'CONSUMED', material: Buffer.alloc(0) });
      expect(await h.t.db.presignaturePoolItem.count({ where: { walletId: bob.walletId } })).toBe(0);
    }
  });

  it('presign naming foreign, unknown or consumed triples consumes nothing; a pair used once cannot be used again', async () => {
    const aliceTriples = await generateTriples(via(h.baseUrl, alice), 2);
    const bobTriples = await generateTriples(via(h.baseUrl, bob), 2);
    const unusedBefore = await h.t.db.triplePoolItem.count({ where: { status: 'UNUSED' } });
    // Bob's client cannot use Alice's rows (her triples' refs and public values, his key share).
    const foreign = presignClientStart({ keyShare: bob.key.keyShare, triples: [[structuredClone(aliceTriples[0]!), structuredClone(aliceTriples[1]!)]] });
    const r = await post(h.baseUrl, '/tss/v1/presign', { msg: foreign.outgoing }, bob.headers);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('presign/1 refused: it names triples that are not unused triples of this wallet');
    // Half known, half unknown: all or nothing.
    const fake: Triple = { ...structuredClone(bobTriples[1]!), session_id: toHex(randomBytes(32)) };
    const mixed = presignClientStart({ keyShare: bob.key.keyShare, triples: [[structuredClone(bobTriples[0]!), fake]] });
    expect((await post(h.baseUrl, '/tss/v1/presign', { msg: mixed.outgoing }, bob.headers)).status).toBe(400);
    expect(await h.t.db.triplePoolItem.count({ where: { status: 'UNUSED' } })).toBe(unusedBefore);
    // Used once: fine; the same pair again: refused.
    const first = await presign(via(h.baseUrl, bob), bob.key.keyShare, structuredClone(bobTriples));
    expect(first).toHaveLength(1);
    const twice = presignClientStart({ keyShare: bob.key.keyShare, triples: [[structuredClone(bobTriples[0]!), structuredClone(bobTriples[1]!)]] });
    expect((await post(h.baseUrl, '/tss/v1/presign', { msg: twice.outgoing }, bob.headers)).status).toBe(400);
    // Concurrent presigns on the same fresh pair: one wins.
    const pair = await generateTriples(via(h.baseUrl, bob), 2);
    const attempts = await Promise.all(
      Array.from({ length: 10 }, () => post(h.baseUrl, '/tss/v1/presign', { msg: presignClientStart({ keyShare: bob.key.keyShare, triples: [[structuredClone(pair[0]!), structuredClone(pair[1]!)]] }).outgoing }, bob.headers)),
    );
    expect(attempts.filter((a) => a.status === 200)).toHaveLength(1);
    // Alice's triples are untouched and still work for her.
    expect(await presign(via(h.baseUrl, alice), alice.key.keyShare, aliceTriples)).toHaveLength(1);
  });

  it('abort works at every step of triples and presign', async () => {
    const start = tripleGenClientStart({ count: 2 });
    const r1 = await post<{ session_id: string; msg: unknown }>(h.baseUrl, '/tss/v1/triples', { msg: start.outgoing }, bob.headers);
    const sessionId = r1.body.data!.session_id;
    expect((await post(h.baseUrl, '/tss/v1/session/abort', { session_id: sessionId }, bob.headers)).status).toBe(200);
    expect(await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({ status: 'ABORTED', state: {} });
    const s1 = tripleGenClientStep(start.state, r1.body.data!.msg);
    if (s1.done) throw new Error('unexpected');
    expect((await post(h.baseUrl, '/tss/v1/triples', { session_id: sessionId, msg: s1.outgoing }, bob.headers)).body.code).toBe('SESSION_NOT_ACTIVE');

    const triples = await generateTriples(via(h.baseUrl, bob), 2);
    const p = presignClientStart({ keyShare: bob.key.keyShare, triples: [[triples[0]!, triples[1]!]] });
    const p1 = await post<{ session_id: string; msg: unknown }>(h.baseUrl, '/tss/v1/presign', { msg: p.outgoing }, bob.headers);
    expect((await post(h.baseUrl, '/tss/v1/session/abort', { session_id: p1.body.data!.session_id }, bob.headers)).status).toBe(200);
    const ps = presignClientStep(p.state, p1.body.data!.msg);
    if (ps.done) throw new Error('unexpected');
    expect((await post(h.baseUrl, '/tss/v1/presign', { session_id: p1.body.data!.session_id, msg: ps.outgoing }, bob.headers)).body.code).toBe('SESSION_NOT_ACTIVE');
    expect(await h.t.db.triplePoolItem.count({ where: { consumedBySessionId: p1.body.data!.session_id, status: 'CONSUMED' } })).toBe(2);
  });

  it('caps: ECDSA_PRESIGNATURE_POOL_MAX and ECDSA_TRIPLE_POOL_MAX answer 409 PRESIGNATURE_POOL_FULL', async () => {
    const carol = await createEcdsaUser(h);
    await fillPool(via(h.baseUrl, carol), carol.key.keyShare, 6);
    const more = await fillPool(via(h.baseUrl, carol), carol.key.keyShare, 1).catch((e: Error) => e.message);
    expect(more).toMatch(/409.*PRESIGNATURE_POOL_FULL.*Presignature pool is full \(at most 6/);
    // The triples of that refused presign are still unused: 2 of them; 10 more fill the triple cap of 12.
    await generateTriples(via(h.baseUrl, carol), 10);
    const full = await generateTriples(via(h.baseUrl, carol), 2).catch((e: Error) => e.message);
    expect(full).toMatch(/409.*PRESIGNATURE_POOL_FULL.*Triple pool is full \(at most 12/);
    // A count no batch may have is bad input (400) whether or not the pool is full.
    const oversized = { ...(tripleGenClientStart({ count: 2 }).outgoing as unknown as Record<string, unknown>), count: 1000 };
    const refused = await post(h.baseUrl, '/tss/v1/triples', { msg: oversized }, carol.headers);
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_PROTOCOL_MESSAGE']);
    expect(await h.t.db.triplePoolItem.count({ where: { walletId: carol.walletId, status: 'UNUSED' } })).toBe(12);
  });

  it('presign/discard drops the unused halves a client lost: the cap frees, old ids are refused, the material is erased', async () => {
    const erin = await createEcdsaUser(h);
    const lost = await fillPool(via(h.baseUrl, erin), erin.key.keyShare, 6);
    await generateTriples(via(h.baseUrl, erin), 4);
    expect((await fillPool(via(h.baseUrl, erin), erin.key.keyShare, 1).catch((e: Error) => e.message))).toMatch(/PRESIGNATURE_POOL_FULL/);
    // One presignature is spent concurrently with the discard: it is either signed or discarded, never both.
    const [signed, discarded] = await Promise.all([
      post<{ sign_output: unknown }>(h.baseUrl, '/tss/v1/sign/step1', { msg: Array.from(randomBytes(32)), msgs_1: { presignature_id: lost[0]!.id } }, erin.headers),
      post<{ discarded_presignatures: number; discarded_triples: number }>(h.baseUrl, '/tss/v1/presign/discard', {}, erin.headers),
    ]);
    const d = discarded.body.data!;
    expect(discarded.status).toBe(200);
    expect(d.discarded_presignatures + (signed.status === 200 ? 1 : 0)).toBe(6);
    expect(d.discarded_triples).toBe(6); // 4 generated + the 2 of the refused presign
    const rows = await h.t.db.presignaturePoolItem.findMany({ where: { walletId: erin.walletId } });
    expect(rows.filter((r) => r.status === 'DISCARDED').every((r) => r.material.length === 0)).toBe(true);
    expect(rows.filter((r) => r.status === 'UNUSED')).toHaveLength(0);
    expect(await h.t.db.triplePoolItem.count({ where: { walletId: erin.walletId, status: 'UNUSED' } })).toBe(0);
    // A discarded presignature can never be spent; the pool refills.
    const late = await post(h.baseUrl, '/tss/v1/sign/step1', { msg: Array.from(randomBytes(32)), msgs_1: { presignature_id: lost[1]!.id } }, erin.headers);
    expect([late.status, late.body.code]).toEqual([409, 'PRESIGNATURE_NOT_AVAILABLE']);
    const fresh = await fillPool(via(h.baseUrl, erin), erin.key.keyShare, 2);
    const hash = randomBytes(32);
    const { output } = await signTwoSteps(via(h.baseUrl, erin), fresh[0]!, hash);
    expect(recoverPublicKey(output, hash)).toBe(toHex(erin.key.publicKey));
    // Strict body; a user without a secp256k1 wallet has nothing to discard.
    expect((await post(h.baseUrl, '/tss/v1/presign/discard', { all: true }, erin.headers)).status).toBe(400);
    expect((await post(h.baseUrl, '/tss/v1/presign/discard', {}, { ...erin.headers, authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('a database dump holds no triple, presignature or protocol-state secret in plaintext', async () => {
    const dave = await createEcdsaUser(h);
    const pooled = await fillPool(via(h.baseUrl, dave), dave.key.keyShare, 2);
    await generateTriples(via(h.baseUrl, dave), 2);
    // A presign session left after step 1 holds the sealed protocol state.
    const more = await generateTriples(via(h.baseUrl, dave), 2);
    const p = presignClientStart({ keyShare: dave.key.keyShare, triples: [[more[0]!, more[1]!]] });
    const p1 = await post<{ session_id: string }>(h.baseUrl, '/tss/v1/presign', { msg: p.outgoing }, dave.headers);
    // And a sign session after step 1 holds the sealed presignature.
    const s1 = await post<{ session_id: string }>(h.baseUrl, '/tss/v1/sign/step1', { msg: Array.from(randomBytes(32)), msgs_1: { presignature_id: pooled[0]!.id } }, dave.headers);
    expect(s1.status).toBe(200);

    const cipher = h.config.shareCipher() as ShareCipher;
    const secrets: string[] = [];
    for (const row of await h.t.db.triplePoolItem.findMany({ where: { walletId: dave.walletId, status: 'UNUSED' } })) {
      const t = openJsonValue<Triple>(cipher, { keyId: row.materialKeyId, ciphertext: row.material }, tripleAad(row.id, dave.walletId));
      secrets.push(t.share_a, t.share_b, t.share_c);
    }
    for (const row of await h.t.db.presignaturePoolItem.findMany({ where: { walletId: dave.walletId, status: 'UNUSED' } })) {
      const s = openJsonValue<Presignature>(cipher, { keyId: row.materialKeyId, ciphertext: row.material }, presignatureAad(row.id, dave.walletId));
      secrets.push(s.share_k, s.share_sigma);
    }
    const signSession = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: s1.body.data!.session_id } });
    const sealedPresig = (signSession.state as { presignature: { key_id: string; material: string } }).presignature;
    const inSession = openJsonValue<Presignature>(cipher, { keyId: sealedPresig.key_id, ciphertext: Buffer.from(sealedPresig.material, 'base64') }, presignatureAad(pooled[0]!.id, dave.walletId));
    secrets.push(inSession.share_k, inSession.share_sigma);
    const presignSession = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: p1.body.data!.session_id } });
    const protocol = openState<{ data: Record<string, unknown> }>(cipher, presignSession.id, (presignSession.state as { protocol: string }).protocol);
    // The secret scalars of the presign state: the key share x, and per item k, a, b, c, e.
    const stateSecrets = [...JSON.stringify(protocol.data).matchAll(/"(x|k|a|b|c|e)":"([0-9a-f]{64})"/g)].map((m) => m[2]!);
    expect(stateSecrets.length).toBeGreaterThanOrEqual(6);
    secrets.push(...stateSecrets);
    expect(secrets.length).toBeGreaterThan(10);

    const columns = await h.t.db.$queryRaw<{ table_name: string; column_name: string; data_type: string }[]>`
      SELECT table_name::text AS table_name, column_name::text AS column_name, data_type::text AS data_type FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'bytea', 'jsonb', 'json')`;
    const parts: string[] = [];
    for (const c of columns) {
      const rows = await h.t.db.$queryRawUnsafe<{ v: unknown }[]>(`SELECT "${c.column_name}"${c.data_type.startsWith('json') ? '::text' : ''} AS v FROM "${c.table_name}"`);
      for (const { v } of rows) {
        if (v instanceof Uint8Array) parts.push(Buffer.from(v).toString('hex'), Buffer.from(v).toString('base64'), Buffer.from(v).toString('latin1'));
        else if (v !== null) parts.push(String(v));
      }
    }
    const dump = parts.join('\n');
    for (const s of secrets) {
      if (s.length < 32) continue;
      expect(dump.includes(s)).toBe(false);
      expect(dump.includes(Buffer.from(s, 'hex').toString('base64'))).toBe(false);
    }
  });
});
