// Triple generation (cait-sith triples, batched for two parties): correctness (c = a·b after
// Lagrange at x = 1, 2), JSON persistence between steps, fail-closed states, and one test per
// protocol check: tamper with the message the check guards and expect the right code and culprit.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { CryptoError } from '../src/index.js';
import { TripleGen, tripleBatchCost, tripleGenClientStart, tripleGenClientStep, tripleGenServerStart, tripleGenServerStep } from '../src/ecdsa/index.js';
import { proveDlog } from '../src/ecdsa/triples/proofs.js';
import { tripleTranscript } from '../src/ecdsa/triples/triple-gen-common.js';
import { encProof } from '../src/ecdsa/triples/triple-gen-wire.js';
import { Fn, blobScalar, combine, json, runTriples, setBlobScalar, type Tamper, withCompressedPoints } from './ecdsa-helpers.js';

const G = secp256k1.Point.BASE;
const hexToBytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

describe('triple generation', () => {
  test('c = a·b for every triple of a batch; both parties agree on A, B, C', () => {
    const { client, server } = runTriples(3);
    expect(client).toHaveLength(3);
    client.forEach((t, k) => {
      const s = server[k]!;
      expect([t.identifier, s.identifier]).toEqual([1, 2]);
      expect([t.big_a, t.big_b, t.big_c]).toEqual([s.big_a, s.big_b, s.big_c]);
      const a = combine(t.share_a, s.share_a);
      const b = combine(t.share_b, s.share_b);
      const c = combine(t.share_c, s.share_c);
      expect(Fn.mul(a, b)).toBe(c);
      expect(G.multiply(a).toHex(true)).toBe(t.big_a);
      expect(G.multiply(b).toHex(true)).toBe(t.big_b);
      expect(G.multiply(c).toHex(true)).toBe(t.big_c);
    });
  });

  test('role-dispatching TripleGen.start/step with states persisted as JSON text between steps', () => {
    const c = TripleGen.start('client', { count: 2 });
    const s = TripleGen.start('server');
    let cs = JSON.stringify(c.state);
    let ss = JSON.stringify(s.state);
    let msg: unknown = JSON.parse(JSON.stringify(c.outgoing));
    let clientOut;
    let serverOut;
    for (let i = 0; i < 4 && !clientOut; i++) {
      const r = TripleGen.step(JSON.parse(ss), msg);
      ss = JSON.stringify(r.state);
      if (r.done) serverOut = r.output;
      const q = TripleGen.step(JSON.parse(cs), JSON.parse(JSON.stringify(r.outgoing)));
      cs = JSON.stringify(q.state);
      if (q.done) clientOut = q.output;
      else msg = JSON.parse(JSON.stringify(q.outgoing));
    }
    expect(clientOut).toHaveLength(2);
    expect(serverOut).toHaveLength(2);
    expect(Fn.mul(combine(clientOut![1]!.share_a, serverOut![1]!.share_a), combine(clientOut![1]!.share_b, serverOut![1]!.share_b))).toBe(
      combine(clientOut![1]!.share_c, serverOut![1]!.share_c),
    );
  });

  test('a stepped state refuses a second step; a failed step aborts the state for good', () => {
    const c = tripleGenClientStart({ count: 1 });
    const s = tripleGenServerStart();
    const r1 = tripleGenServerStep(s, c.outgoing);
    expect(s.phase).toBe('superseded');
    expect(() => tripleGenServerStep(s, c.outgoing)).toThrow(expect.objectContaining({ code: 'STATE_CONSUMED' }));
    const bad = { ...r1.outgoing!, commitment: '00'.repeat(31) };
    const cs = json(c.state);
    expect(() => tripleGenClientStep(cs, bad)).toThrow(expect.objectContaining({ code: 'INVALID_ENCODING', culprits: [2] }));
    expect(cs.phase).toBe('aborted');
    expect(cs.data).toBeUndefined();
    expect(cs.error).toMatchObject({ code: 'INVALID_ENCODING', culprits: [2] });
    expect(() => tripleGenClientStep(json(cs), r1.outgoing)).toThrow(expect.objectContaining({ code: 'PROTOCOL_ABORTED' }));
  });

  test('states written with compressed points (before they were kept uncompressed) still step', () => {
    const rewritten = { n: 0 };
    const { client, server } = runTriples(2, undefined, undefined, withCompressedPoints(rewritten));
    expect(rewritten.n).toBeGreaterThanOrEqual(2 * (3 * 2 + 6) + 1);
    client.forEach((t, k) => expect(Fn.mul(combine(t.share_a, server[k]!.share_a), combine(t.share_b, server[k]!.share_b))).toBe(combine(t.share_c, server[k]!.share_c)));
  });

  test('cost model: 3 round trips, one base-OT batch of 128, 768 OTs per triple', () => {
    const c = tripleBatchCost(64);
    expect(c.roundTrips).toBe(3);
    expect(c.baseOts).toBe(128);
    expect(c.otExtensionRows).toBe(64 * 768 + 256);
    expect(c.bytesPerTriple).toBeGreaterThan(60_000);
    expect(c.bytesPerTriple).toBeLessThan(70_000);
  });

  test('input validation', () => {
    expect(() => tripleGenClientStart({ count: 0 })).toThrow(CryptoError);
    expect(() => tripleGenServerStart({ maxCount: 1e9 })).toThrow(CryptoError);
    const c = tripleGenClientStart({ count: 5 });
    expect(() => tripleGenServerStep(tripleGenServerStart({ maxCount: 4 }), c.outgoing)).toThrow(expect.objectContaining({ code: 'INVALID_ENCODING', culprits: [1] }));
    expect(() => tripleGenClientStep(tripleGenServerStart(), {})).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

/** Runs a one-triple batch with `tamper` and expects it to abort with code and culprit. */
function expectAbort(tamper: Tamper, code: string, culprit: number): void {
  let err: unknown;
  try {
    runTriples(1, tamper);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(CryptoError);
  expect(err).toMatchObject({ code, culprits: [culprit] });
}

const on = (type: string, f: (m: Record<string, unknown>) => void): Tamper => (t, m) => {
  if (t === type) f(m);
};
/** The proof's s plus one (its commitments, if sent, unchanged). */
const bumpProof = (p: string) => p.slice(0, 64) + setBlobScalar(p.slice(64, 128), 0, BigInt('0x' + p.slice(64, 128)) + 1n) + p.slice(128);
/** The proof's last commitment replaced by another valid point. */
const otherCommitment = (p: string) => p.slice(0, p.length - 130) + G.multiply(4242n).toHex(false);
const otherPoint = G.multiply(12345n).toHex(true);
/** The error a three-triple batch with `tamper` aborts with (fails the test if it finishes). */
const abortOf = (tamper: Tamper) => {
  try {
    runTriples(3, tamper);
  } catch (e) {
    return e as CryptoError;
  }
  throw new Error('no abort');
};

describe('batched share checks name the triple at fault', () => {
  test.each([
    ['triples/2', 'shares_e', 2, 'E(2)'],
    ['triples/2', 'shares_f', 1, 'F(2)'],
    ['triples/3', 'shares_c', 2, 'L(2)'],
    ['triples/2-reply', 'shares_c', 1, 'L(1)'],
  ])('%s %s of triple %i', (type, field, k, what) => {
    const err = abortOf(on(type, (m) => (m[field] = setBlobScalar(m[field] as string, k, blobScalar(m[field] as string, k) + 1n))));
    expect(err).toMatchObject({ code: 'INVALID_SHARE' });
    expect(err.message).toContain(what);
    expect(err.message).toContain(`(triple ${k})`);
  });
});

describe('proofs are checked as one batch per step', () => {
  const tamperProof = (type: string, field: string, k: number, f: (p: string) => string) => on(type, (m) => ((m[field] as string[])[k] = f((m[field] as string[])[k]!)));

  test.each([
    ['triples/2', 'proofs_e', 2, 'e(0)', 1],
    ['triples/2', 'proofs_f', 1, 'f(0)', 1],
    ['triples/3', 'proofs_c', 2, 'C_1', 1],
    ['triples/3', 'proofs_c_hat', 1, 'Ĉ_1', 1],
    ['triples/2-reply', 'proofs_e', 0, 'e(0)', 2],
    ['triples/2-reply', 'proofs_c', 1, 'C_2', 2],
    ['triples/2-reply', 'proofs_c_hat', 2, 'Ĉ_2', 2],
  ])('%s: a bad %s of triple %i among three is found and named', (type, field, k, what, culprit) => {
    const err = abortOf(tamperProof(type, field, k, bumpProof));
    expect(err).toMatchObject({ code: 'INVALID_PROOF', culprits: [culprit] });
    expect(err.message).toContain(what);
    expect(err.message).toContain(`(triple ${k})`);
  });

  test('a commitment that does not hash to the challenge is refused', () => {
    expect(abortOf(tamperProof('triples/3', 'proofs_c', 1, otherCommitment))).toMatchObject({ code: 'INVALID_PROOF', culprits: [1] });
    expect(abortOf(tamperProof('triples/2-reply', 'proofs_f', 0, otherCommitment))).toMatchObject({ code: 'INVALID_PROOF', culprits: [2] });
  });

  test('a proof with the wrong number of commitments is an encoding error', () => {
    expect(abortOf(tamperProof('triples/3', 'proofs_c', 0, (p) => p.slice(0, p.length - 130)))).toMatchObject({ code: 'INVALID_ENCODING', culprits: [1] });
    // A commitment in compressed form (the length of another count of commitments is no way around it).
    expect(abortOf(tamperProof('triples/3', 'proofs_c_hat', 0, (p) => p.slice(0, 128) + G.multiply(4242n).toHex(true) + '00'.repeat(32)))).toMatchObject({ code: 'INVALID_POINT', culprits: [1] });
    expect(abortOf(tamperProof('triples/2', 'proofs_e', 0, (p) => p + p.slice(128)))).toMatchObject({ code: 'INVALID_ENCODING', culprits: [1] });
  });

  describe('a client whose proofs carry no commitments (an earlier SDK)', () => {
    const PROOFS = ['proofs_e', 'proofs_f', 'proofs_c', 'proofs_c_hat'];
    const legacy = (also: Tamper = () => undefined): Tamper => (type, m) => {
      if (type === 'triples/2' || type === 'triples/3') for (const f of PROOFS) if (f in m) m[f] = (m[f] as string[]).map((p) => p.slice(0, 128));
      return also(type, m);
    };

    test('gets the server\'s proofs without them too, and the triples are right', () => {
      const seen: number[] = [];
      const { client, server } = runTriples(3, legacy((type, m) => {
        if (type === 'triples/2-reply') for (const f of PROOFS) seen.push(...(m[f] as string[]).map((p) => p.length));
      }));
      expect(seen).toHaveLength(12);
      expect(new Set(seen)).toEqual(new Set([128]));
      client.forEach((t, k) => expect(Fn.mul(combine(t.share_a, server[k]!.share_a), combine(t.share_b, server[k]!.share_b))).toBe(combine(t.share_c, server[k]!.share_c)));
    });

    test('its proofs are still checked, one by one', () => {
      const err = abortOf(legacy(tamperProof('triples/3', 'proofs_c_hat', 2, bumpProof)));
      expect(err).toMatchObject({ code: 'INVALID_PROOF', culprits: [1] });
      expect(err.message).toContain('Ĉ_1');
      expect(err.message).toContain('(triple 2)');
    });
  });
});

describe('triple generation checks, at the server (culprit: client = 1)', () => {
  test('Confirm equality', () => expectAbort(on('triples/2', (m) => (m.confirmation = 'ab'.repeat(32))), 'CHECK_FAILED', 1));
  test('L_1(0) = 0', () => expectAbort(on('triples/2', (m) => ((m.big_l as string[][])[0]![0] = otherPoint)), 'CHECK_FAILED', 1));
  test('commitment opening', () => expectAbort(on('triples/2', (m) => ((m.big_e as string[][])[0]![1] = otherPoint)), 'INVALID_COMMITMENT', 1));
  test('degree of E', () => expectAbort(on('triples/2', (m) => (m.big_e as string[][])[0]!.push(otherPoint)), 'INVALID_ENCODING', 1));
  test('dlog proof of e(0)', () => expectAbort(on('triples/2', (m) => ((m.proofs_e as string[])[0] = bumpProof((m.proofs_e as string[])[0]!))), 'INVALID_PROOF', 1));
  test('dlog proof of f(0)', () => expectAbort(on('triples/2', (m) => ((m.proofs_f as string[])[0] = bumpProof((m.proofs_f as string[])[0]!))), 'INVALID_PROOF', 1));
  test('E(2) = a_2·G', () => expectAbort(on('triples/2', (m) => (m.shares_e = setBlobScalar(m.shares_e as string, 0, blobScalar(m.shares_e as string, 0) + 1n))), 'INVALID_SHARE', 1));
  test('F(2) = b_2·G', () => expectAbort(on('triples/2', (m) => (m.shares_f = setBlobScalar(m.shares_f as string, 0, blobScalar(m.shares_f as string, 0) + 1n))), 'INVALID_SHARE', 1));
  test('KOS consistency check (one bit of U flipped)', () =>
    expectAbort(on('triples/2', (m) => (m.ot_u = ((m.ot_u as string).slice(0, 100) + ((parseInt((m.ot_u as string)[100]!, 16) ^ 1).toString(16)) + (m.ot_u as string).slice(101)))), 'CHECK_FAILED', 1));
  test('KOS consistency check (t_j altered)', () => expectAbort(on('triples/2', (m) => (m.kos_t = 'ff' + (m.kos_t as string).slice(2))), 'CHECK_FAILED', 1));
  test('dlog-equality proof of C_1', () => expectAbort(on('triples/3', (m) => ((m.proofs_c as string[])[0] = bumpProof((m.proofs_c as string[])[0]!))), 'INVALID_PROOF', 1));
  test('C_1 replaced', () => expectAbort(on('triples/3', (m) => ((m.big_c as string[])[0] = otherPoint)), 'INVALID_PROOF', 1));
  test('dlog proof of Ĉ_1', () => expectAbort(on('triples/3', (m) => ((m.proofs_c_hat as string[])[0] = bumpProof((m.proofs_c_hat as string[])[0]!))), 'INVALID_PROOF', 1));
  test('L(2) = c_2·G', () => expectAbort(on('triples/3', (m) => (m.shares_c = setBlobScalar(m.shares_c as string, 0, blobScalar(m.shares_c as string, 0) + 1n))), 'INVALID_SHARE', 1));
  test('C = L(0): a validly proven but wrong Ĉ_1 (malicious multiplication)', () => {
    let sid = '';
    let confirmation = '';
    expectAbort((t, m) => {
      if (t === 'triples/2') [sid, confirmation] = [m.session_id as string, m.confirmation as string];
      if (t === 'triples/3') {
        const w = 777n;
        const W = G.multiply(w);
        const tr = tripleTranscript(hexToBytes(sid), 1, hexToBytes(confirmation)).fork('dlog2', 1, 0);
        (m.big_c_hat as string[])[0] = W.toHex(true);
        (m.proofs_c_hat as string[])[0] = encProof(proveDlog(tr, W, w), true);
      }
    }, 'CHECK_FAILED', 1);
  });
  test('strict decoding: unknown field, invalid point, non-canonical scalar, wrong length, version', () => {
    expectAbort(on('triples/1', (m) => (m.extra = true)), 'INVALID_ENCODING', 1);
    expectAbort(on('triples/1', (m) => (m.base_ot_y = '02' + 'ff'.repeat(32))), 'INVALID_POINT', 1);
    expectAbort(on('triples/2', (m) => (m.shares_e = 'ff'.repeat(32))), 'INVALID_SCALAR', 1);
    // A blob item equal to n (the smallest non-canonical value) in the middle of the MtA blob, which
    // the client decodes (culprit: the server); uppercase hex in a blob the server decodes.
    const n = secp256k1.Point.Fn.ORDER.toString(16).padStart(64, '0');
    expectAbort(on('triples/2-reply', (m) => (m.mta_c = (m.mta_c as string).slice(0, 64 * 5) + n + (m.mta_c as string).slice(64 * 6))), 'INVALID_SCALAR', 2);
    expectAbort(on('triples/2', (m) => (m.shares_e = (m.shares_e as string).toUpperCase())), 'INVALID_ENCODING', 1);
    expectAbort(on('triples/2', (m) => (m.ot_u = (m.ot_u as string).slice(2))), 'INVALID_ENCODING', 1);
    expectAbort(on('triples/3', (m) => (m.v = 2)), 'UNSUPPORTED_VERSION', 1);
  });
});

describe('triple generation checks, at the client (culprit: server = 2)', () => {
  test('Confirm equality', () => expectAbort(on('triples/2-reply', (m) => (m.confirmation = 'ab'.repeat(32))), 'CHECK_FAILED', 2));
  test('L_2(0) = 0', () => expectAbort(on('triples/2-reply', (m) => ((m.big_l as string[][])[0]![0] = otherPoint)), 'CHECK_FAILED', 2));
  test('commitment opening', () => expectAbort(on('triples/2-reply', (m) => ((m.big_f as string[][])[0]![0] = otherPoint)), 'INVALID_COMMITMENT', 2));
  test('dlog proof of e(0)', () => expectAbort(on('triples/2-reply', (m) => ((m.proofs_e as string[])[0] = bumpProof((m.proofs_e as string[])[0]!))), 'INVALID_PROOF', 2));
  test('dlog proof of f(0)', () => expectAbort(on('triples/2-reply', (m) => ((m.proofs_f as string[])[0] = bumpProof((m.proofs_f as string[])[0]!))), 'INVALID_PROOF', 2));
  test('E(1) = a_1·G', () => expectAbort(on('triples/2-reply', (m) => (m.shares_e = setBlobScalar(m.shares_e as string, 0, blobScalar(m.shares_e as string, 0) + 1n))), 'INVALID_SHARE', 2));
  test('F(1) = b_1·G', () => expectAbort(on('triples/2-reply', (m) => (m.shares_f = setBlobScalar(m.shares_f as string, 0, blobScalar(m.shares_f as string, 0) + 1n))), 'INVALID_SHARE', 2));
  test('dlog-equality proof of C_2', () => expectAbort(on('triples/2-reply', (m) => ((m.proofs_c as string[])[0] = bumpProof((m.proofs_c as string[])[0]!))), 'INVALID_PROOF', 2));
  test('dlog proof of Ĉ_2', () => expectAbort(on('triples/2-reply', (m) => ((m.proofs_c_hat as string[])[0] = bumpProof((m.proofs_c_hat as string[])[0]!))), 'INVALID_PROOF', 2));
  test('C = L(0): the MtA sender shifts both c values of one OT', () =>
    expectAbort(
      on('triples/2-reply', (m) => {
        // Shifting only one of the pair would be noticed only if the receiver chose it (selective failure).
        for (const i of [4, 5]) m.mta_c = setBlobScalar(m.mta_c as string, i, blobScalar(m.mta_c as string, i) + 1n);
      }),
      'CHECK_FAILED',
      2,
    ));
  test('L(1) = c_1·G', () => expectAbort(on('triples/2-reply', (m) => (m.shares_c = setBlobScalar(m.shares_c as string, 0, blobScalar(m.shares_c as string, 0) + 1n))), 'INVALID_SHARE', 2));
  test('final digest of the public triples', () => expectAbort(on('triples/3-reply', (m) => (m.digest = '00'.repeat(32))), 'CHECK_FAILED', 2));
  test('strict decoding of base-OT points and session id', () => {
    expectAbort(on('triples/1-reply', (m) => ((m.base_ot_x as string[])[7] = '03' + 'ff'.repeat(32))), 'INVALID_POINT', 2);
    expectAbort(on('triples/1-reply', (m) => (m.base_ot_x as string[]).pop()), 'INVALID_ENCODING', 2);
    expectAbort(on('triples/2-reply', (m) => (m.session_id = '11'.repeat(32))), 'CHECK_FAILED', 2);
  });
});
