// Presign (cait-sith presign): output consistency, single-use triples, and one tamper test per
// check (e·G = E, e ≠ 0, α·G = K + A, β·G = X + B, triple agreement, final digest).
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { CryptoError } from '../src/index.js';
import { Presign, presignClientStart, presignRequestedTriples, presignServerStart } from '../src/ecdsa/index.js';
import { Fn, blobScalar, combine, json, keyShares, pairs, runPresign, runTriples, setBlobScalar, type Tamper, withCompressedPoints } from './ecdsa-helpers.js';

const G = secp256k1.Point.BASE;
const keys = keyShares();
// One batch serves every test here: 2 triples per presign run.
let pool: ReturnType<typeof runTriples>;
let next = 0;
const take = () => {
  const i = next;
  next += 2;
  return { client: pool.client.slice(i, i + 2), server: pool.server.slice(i, i + 2) };
};

beforeAll(() => {
  pool = runTriples(40, undefined, 40);
});

test('R = (1/k)·G and σ = k·x, reconstructed from the two parties shares', () => {
  const t = take();
  const k = combine(t.client[0]!.share_a, t.server[0]!.share_a);
  const p = runPresign(keys, t);
  const x = BigInt('0x' + Buffer.from(keys.secret).toString('hex'));
  expect(p.client[0]!.big_r).toBe(p.server[0]!.big_r);
  expect(G.multiply(Fn.inv(k)).toHex(true)).toBe(p.client[0]!.big_r);
  expect(combine(p.client[0]!.share_k, p.server[0]!.share_k)).toBe(k);
  expect(combine(p.client[0]!.share_sigma, p.server[0]!.share_sigma)).toBe(Fn.mul(k, x));
});

test('states written with compressed points (before they were kept uncompressed) still step', () => {
  const t = take();
  const k = combine(t.client[0]!.share_a, t.server[0]!.share_a);
  const rewritten = { n: 0 };
  const p = runPresign(keys, t, undefined, withCompressedPoints(rewritten));
  // Five points in each start state; the server's second state carries its items over as read.
  expect(rewritten.n).toBe(2 * 5);
  expect(p.client[0]!.big_r).toBe(p.server[0]!.big_r);
  expect(G.multiply(Fn.inv(k)).toHex(true)).toBe(p.client[0]!.big_r);
});

test('Presign.start/step with JSON-persisted states; requested triples are readable by the server', () => {
  const t = take();
  const c = Presign.start('client', { keyShare: keys.client, triples: pairs(t.client) });
  expect(presignRequestedTriples(c.outgoing)).toEqual(t.server.map((s) => ({ session_id: s.session_id, index: s.index })));
  const s = Presign.start('server', { keyShare: keys.server, triples: pairs(t.server) });
  const r1 = Presign.step(JSON.parse(JSON.stringify(s.state)), json(c.outgoing));
  const c2 = Presign.step(JSON.parse(JSON.stringify(c.state)), json(r1.outgoing));
  const r2 = Presign.step(JSON.parse(JSON.stringify(r1.state)), json(c2.outgoing));
  const c3 = Presign.step(JSON.parse(JSON.stringify(c2.state)), json(r2.outgoing));
  expect(r2.done && c3.done).toBe(true);
});

test('a triple is refused once used, and within one call', () => {
  const t = take();
  presignClientStart({ keyShare: keys.client, triples: pairs(t.client) });
  expect(t.client[0]!.consumed).toBe(true);
  expect(t.client[0]!.share_a).toBe('');
  expect(() => presignClientStart({ keyShare: keys.client, triples: pairs(t.client) })).toThrow(expect.objectContaining({ code: 'STATE_CONSUMED' }));
  const u = take();
  expect(() => presignServerStart({ keyShare: keys.server, triples: [[u.server[0]!, u.server[0]!]] })).toThrow(expect.objectContaining({ code: 'STATE_CONSUMED' }));
  expect(() => presignServerStart({ keyShare: keys.client, triples: pairs(u.server) })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
});

function expectAbort(tamper: Tamper, code: string, culprit: number, k = keys): void {
  let err: unknown;
  try {
    runPresign(k, take(), tamper);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(CryptoError);
  expect(err).toMatchObject({ code, culprits: [culprit] });
}
const bump = (field: string) => (m: Record<string, unknown>) => {
  m[field] = setBlobScalar(m[field] as string, 0, blobScalar(m[field] as string, 0) + 1n);
};
const on = (type: string, f: (m: Record<string, unknown>) => void): Tamper => (t, m) => {
  if (t === type) f(m);
};

describe('checks at the server (culprit: client = 1)', () => {
  test('e·G = E', () => expectAbort(on('presign/1', bump('e_prime')), 'CHECK_FAILED', 1));
  test("e' of the peer must not be zero", () => expectAbort(on('presign/1', (m) => (m.e_prime = '00'.repeat(32))), 'CHECK_FAILED', 1));
  test('α·G = K + A', () => expectAbort(on('presign/2', bump('alpha')), 'CHECK_FAILED', 1));
  test('β·G = X + B', () => expectAbort(on('presign/2', bump('beta')), 'CHECK_FAILED', 1));
  test('same triples on both sides', () => expectAbort(on('presign/1', (m) => (m.triples_digest = '00'.repeat(32))), 'CHECK_FAILED', 1));
  test('same triple references', () => expectAbort(on('presign/1', (m) => ((m.triples as { index: number }[])[0]!.index += 1)), 'CHECK_FAILED', 1));
  test('strict decoding', () => expectAbort(on('presign/2', (m) => (m.alpha = (m.alpha as string) + '00')), 'INVALID_ENCODING', 1));
});

describe('checks at the client (culprit: server = 2)', () => {
  test('e·G = E', () => expectAbort(on('presign/1-reply', bump('e_prime')), 'CHECK_FAILED', 2));
  test('α·G = K + A', () => expectAbort(on('presign/1-reply', bump('alpha')), 'CHECK_FAILED', 2));
  test('β·G = X + B', () => expectAbort(on('presign/1-reply', bump('beta')), 'CHECK_FAILED', 2));
  test('β·G = X + B catches a server key share of another key', () => {
    const other = keyShares();
    expectAbort(() => undefined, 'CHECK_FAILED', 2, { ...keys, server: { ...other.server, publicKey: keys.publicKey } });
  });
  test('final digest', () => expectAbort(on('presign/2-reply', (m) => (m.digest = '00'.repeat(32))), 'CHECK_FAILED', 2));
});
