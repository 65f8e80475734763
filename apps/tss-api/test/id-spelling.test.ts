import { createHash } from 'node:crypto';
import { aggregateEd25519, ed25519Wire, signRound1ClientEd25519, signRound2ClientEd25519, toHex } from '@svc/crypto';
import { presignClientStart, presignClientStep, signShareClient, tripleGenClientStart, tripleGenClientStep, type Triple } from '@svc/crypto/ecdsa';
import { startHarness, type Harness } from './support/harness.js';
import { fillPool, generateTriples, poster, verifySha256WithNode, type SignOutput } from './support/ecdsa-client.js';
import { createEcdsaUser, via, type EcdsaUser } from './support/ecdsa-user.js';
import { createWalletUser, type WalletUser } from './support/wallet-user.js';
import { post, verifyWithNode } from './support/wallet-client.js';

/*
 * Ids are UUIDs, which PostgreSQL matches case-blind, while the server also binds them as text
 * into sealed material. An id the client spells in capitals must work like the canonical one
 * (it names the same row), not claim the row and then fail to open it: that was a 500 which
 * also burnt the presignature or the run. Step numbers outside a protocol's range were a 500
 * from PostgreSQL's int parameter.
 */

const sha256 = (m: Uint8Array) => new Uint8Array(createHash('sha256').update(m).digest());
const shout = (id: string) => id.toUpperCase();

describe('ids spelled in capitals name the same session or presignature', () => {
  let h: Harness;
  let alice: EcdsaUser;
  let carol: WalletUser;

  beforeAll(async () => {
    h = await startHarness();
    [alice, carol] = await Promise.all([createEcdsaUser(h), createWalletUser(h)]);
  }, 120_000);
  afterAll(() => h.stop());

  it('triples: steps 2 and 3 with the session id in capitals complete the run', async () => {
    const p = poster(h.baseUrl, alice.headers);
    const start = tripleGenClientStart({ count: 2 });
    let state = start.state;
    let outgoing: unknown = start.outgoing;
    let sessionId: string | undefined;
    let triples: Triple[] | undefined;
    for (let step = 1; !triples; step++) {
      const res = await p<{ session_id: string; msg: unknown }>('/tss/v1/triples', { ...(sessionId ? { session_id: shout(sessionId) } : {}), msg: outgoing });
      expect([step, res.status]).toEqual([step, 200]);
      expect(res.body.data!.session_id).toBe(sessionId ?? res.body.data!.session_id.toLowerCase());
      sessionId = res.body.data!.session_id;
      const r = tripleGenClientStep(state, res.body.data!.msg);
      if (r.done) triples = r.output;
      else [state, outgoing] = [r.state, r.outgoing];
    }
    expect(triples).toHaveLength(2);
    expect(await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId! } })).toMatchObject({ status: 'COMPLETED' });
  });

  it('presign: step 2 with the session id in capitals gives presignatures that sign', async () => {
    const triples = await generateTriples(via(h.baseUrl, alice), 2);
    const p = poster(h.baseUrl, alice.headers);
    const start = presignClientStart({ keyShare: alice.key.keyShare, triples: [[triples[0]!, triples[1]!]] });
    const r1 = await p<{ session_id: string; msg: unknown }>('/tss/v1/presign', { msg: start.outgoing });
    const s1 = presignClientStep(start.state, r1.body.data!.msg);
    if (s1.done) throw new Error('presign ended early');
    const r2 = await p<{ session_id: string; msg: unknown; presignature_ids: string[] }>('/tss/v1/presign', { session_id: shout(r1.body.data!.session_id), msg: s1.outgoing });
    expect(r2.status).toBe(200);
    const s2 = presignClientStep(s1.state, r2.body.data!.msg);
    if (!s2.done) throw new Error('presign did not end');
    const hash = sha256(new TextEncoder().encode('after a capitalised presign'));
    const share = signShareClient(s2.output[0]!, hash);
    const signed = await p<{ sign_output: SignOutput }>('/tss/v1/sign', { msg: Array.from(hash), msgs_1: { presignature_id: r2.body.data!.presignature_ids[0], signature_share: share.signature_share } });
    expect(signed.status).toBe(200);
    expect(verifySha256WithNode(signed.body.data!.sign_output, new TextEncoder().encode('after a capitalised presign'), alice.key.publicKey)).toBe(true);
  });

  it('sign: a presignature id in capitals spends that presignature and answers its canonical id', async () => {
    const [pooled] = await fillPool(via(h.baseUrl, alice), alice.key.keyShare, 1);
    const message = new TextEncoder().encode('capital presignature id');
    const hash = sha256(message);
    const share = signShareClient(pooled!.presignature, hash);
    const res = await poster(h.baseUrl, alice.headers)<{ msgs_0: { presignature_id: string }; sign_output: SignOutput }>('/tss/v1/sign', {
      msg: Array.from(hash),
      msgs_1: { presignature_id: shout(pooled!.id), signature_share: share.signature_share },
    });
    expect(res.status).toBe(200);
    expect(res.body.data!.msgs_0.presignature_id).toBe(pooled!.id);
    expect(verifySha256WithNode(res.body.data!.sign_output, message, alice.key.publicKey)).toBe(true);
    expect(await h.t.db.presignaturePoolItem.findUniqueOrThrow({ where: { id: pooled!.id } })).toMatchObject({ status: 'CONSUMED' });
  });

  it('Ed25519 round 2 with the session id in capitals answers a share that aggregates', async () => {
    const msg = new TextEncoder().encode('capital ed25519 session');
    const client = signRound1ClientEd25519(carol.key.keygen.keygen1);
    const r1 = await post<{ session_id: string; commitment0: unknown }>(h.baseUrl, '/tss/v2/sign_ed25519/round1', { msg: toHex(msg) }, carol.headers);
    const r2 = await post<{ signature_share0: unknown }>(
      h.baseUrl,
      '/tss/v2/sign_ed25519/round2',
      { session_id: shout(r1.body.data!.session_id), commitment1: ed25519Wire.encodeSigningCommitments(client.commitment1) },
      carol.headers,
    );
    expect(r2.status).toBe(200);
    const commitment0 = ed25519Wire.decodeSigningCommitments(r1.body.data!.commitment0);
    const { keygen1, publicKeyPackage, publicKey } = carol.key.keygen;
    const signatureShare1 = signRound2ClientEd25519({ msg, keyPackage: keygen1, nonces: client.nonces, commitment0, commitment1: client.commitment1 });
    const signature = aggregateEd25519({ msg, publicKeyPackage, commitment0, commitment1: client.commitment1, signatureShare0: ed25519Wire.decodeSignatureShare(r2.body.data!.signature_share0).share, signatureShare1 });
    expect(verifyWithNode(signature, msg, publicKey)).toBe(true);
  });

  it.each([
    ['/tss/v1/triples', 'triples/99999999999'],
    ['/tss/v1/triples', 'triples/1e300'],
    ['/tss/v1/triples', 'triples/0'],
    ['/tss/v1/presign', 'presign/99999999999'],
  ])('%s with msg.type %s is a 4xx in the envelope, not a 500', async (path, type) => {
    const res = await poster(h.baseUrl, alice.headers)(path, { session_id: '7f0c8a52-2b7e-4a53-9d55-2d9a3c1e0f11', msg: { type } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 'SESSION_NOT_FOUND' });
  });
});
