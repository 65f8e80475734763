import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/curves/utils.js';
import fc from 'fast-check';
import type { SigningCommitmentsJson } from '../src/index.js';
import { codeOf, IDENTITY, IDENTITY_NEG_ZERO, json, keys, NON_CANONICAL_Y, opensslVerify, ORDER_2, ORDER_8, P, party } from './ed25519-helpers.js';

// A commitment may travel with a subgroup witness W, [8]W = commitment (frost/types.ts
// SubgroupWitness): the receiver multiplies by the cofactor instead of checking [L]P = 0.
const Fn = ed25519.Point.Fn;
const G = ed25519.Point.BASE;
const T8 = P(ORDER_8);
const msg = new TextEncoder().encode('subgroup witness');

/** The client's fresh commitments as it sends them, and the server that receives them. */
function sent() {
  const client = party(1);
  const server = party(2);
  const round1 = client.suite.round1(client.keyPackage);
  return { client, server, round1, wire: client.wire.encodeSigningCommitments(round1.commitments) as SigningCommitmentsJson };
}

describe('round 1', () => {
  test('makes a witness of each commitment: [8]W is the commitment (by noble), and W is not the commitment', () => {
    const { round1 } = sent();
    const { commitments } = round1;
    expect(commitments.witness).toBeDefined();
    for (const k of ['hiding', 'binding'] as const) {
      const w = P(bytesToHex(commitments.witness![k]));
      expect(bytesToHex(w.multiplyUnsafe(8n).toBytes())).toBe(bytesToHex(commitments[k]));
      expect(w.isTorsionFree()).toBe(true); // an honest witness is (nonce/8)·G
      expect(bytesToHex(commitments.witness![k])).not.toBe(bytesToHex(commitments[k]));
    }
  });

  test('with a fixed RNG, the commitments are the ones noble computes as nonce·G (RFC 9591 round 1 unchanged)', () => {
    const client = party(1);
    let n = 0;
    const rng = (len = 32) => new Uint8Array(len).fill(++n);
    const { nonces, commitments } = client.suite.round1(client.keyPackage, rng);
    expect(bytesToHex(commitments.hiding)).toBe(bytesToHex(G.multiply(Fn.fromBytes(nonces.hiding)).toBytes()));
    expect(bytesToHex(commitments.binding)).toBe(bytesToHex(G.multiply(Fn.fromBytes(nonces.binding)).toBytes()));
  });
});

describe('decoding a commitment with its witness', () => {
  test('takes no subgroup check [L]P and caches both points; without the witness, two checks', () => {
    const { server, wire } = sent();
    const counts = server.suite.counts!;
    const before = counts.subgroupChecks;
    const c = server.wire.decodeSigningCommitments(json(wire));
    expect(counts.subgroupChecks - before).toBe(0);
    expect(server.suite.checked?.has(c.hiding) && server.suite.checked?.has(c.binding)).toBe(true);
    expect(bytesToHex(c.witness!.hiding)).toBe(wire.witness!.hiding);

    const other = sent();
    const { witness: _none, ...bare } = other.wire;
    const checks = other.server.suite.counts!.subgroupChecks;
    const d = other.server.wire.decodeSigningCommitments(json(bare));
    expect(other.server.suite.counts!.subgroupChecks - checks).toBe(2);
    expect(d.witness).toBeUndefined();
  });

  const refused: [string, (w: SigningCommitmentsJson) => SigningCommitmentsJson][] = [
    ['the witnesses swapped (each proves the other point)', (w) => ({ ...w, witness: { hiding: w.witness!.binding, binding: w.witness!.hiding } })],
    ['the commitment plus an order-8 point, with the honest witness', (w) => ({ ...w, hiding: bytesToHex(P(w.hiding).add(T8).toBytes()) })],
    ['the commitment plus an order-2 point, with the honest witness', (w) => ({ ...w, hiding: bytesToHex(P(w.hiding).add(P(ORDER_2)).toBytes()) })],
    ['the commitment itself as its witness', (w) => ({ ...w, witness: { ...w.witness!, hiding: w.hiding } })],
    ['the identity, with an order-8 witness ([8]W is the identity)', (w) => ({ ...w, hiding: IDENTITY, witness: { ...w.witness!, hiding: ORDER_8 } })],
    ['a witness with a non-canonical y (p + 1)', (w) => ({ ...w, witness: { ...w.witness!, hiding: NON_CANONICAL_Y } })],
    ['a witness x = 0 with the sign bit set', (w) => ({ ...w, witness: { ...w.witness!, hiding: IDENTITY_NEG_ZERO } })],
    ['a witness that is not on the curve', (w) => ({ ...w, witness: { ...w.witness!, hiding: '02' + '00'.repeat(31) } })],
  ];

  test.each(refused)('refuses %s (INVALID_POINT, nothing cached)', (_name, tamper) => {
    const { server, wire } = sent();
    const bad = tamper(wire);
    expect(codeOf(() => server.wire.decodeSigningCommitments(json(bad)))).toBe('INVALID_POINT');
    expect(server.suite.checked?.has(hexToBytes(bad.hiding))).toBe(false);
    expect(server.suite.checked?.has(hexToBytes(IDENTITY))).toBe(false);
  });

  const malformed: [string, (w: SigningCommitmentsJson) => unknown][] = [
    ['a witness of 31 bytes', (w) => ({ ...w, witness: { ...w.witness!, hiding: w.witness!.hiding.slice(2) } })],
    ['upper-case hex', (w) => ({ ...w, witness: { ...w.witness!, hiding: w.witness!.hiding.toUpperCase() } })],
    ['a witness without binding', (w) => ({ ...w, witness: { hiding: w.witness!.hiding } })],
    ['a witness with an extra field', (w) => ({ ...w, witness: { ...w.witness!, extra: w.witness!.hiding } })],
    ['witness null', (w) => ({ ...w, witness: null })],
    ['witness a string', (w) => ({ ...w, witness: w.witness!.hiding })],
  ];

  test.each(malformed)('refuses %s (INVALID_ENCODING)', (_name, tamper) => {
    const { server, wire } = sent();
    expect(codeOf(() => server.wire.decodeSigningCommitments(json(tamper(wire))))).toBe('INVALID_ENCODING');
  });

  test('any of the eight points W + T proves the same commitment; no witness proves a point outside the subgroup', () => {
    // For D = k·G + t·T8 and a candidate W = (k/8)·G + u·T8: [8]W = k·G, so exactly the t = 0
    // points are accepted, whatever u, which is what noble's [L]P check says of D.
    const { server } = sent();
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: Fn.ORDER - 1n }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 }), (k, t, u) => {
        const d = G.multiply(k).add(T8.multiplyUnsafe(BigInt(t)));
        const w = G.multiply(Fn.div(k, 8n)).add(T8.multiplyUnsafe(BigInt(u)));
        const accepted = codeOf(() => server.suite.parsePoint(d.toBytes(), 'd', 1, w.toBytes())) === 'none';
        expect(accepted).toBe(t === 0);
        expect(accepted).toBe(P(bytesToHex(d.toBytes())).isTorsionFree());
      }),
      { numRuns: 40 },
    );
  });
});

describe('signing with witnesses', () => {
  test('both ways, or only one way (an older peer), the signatures verify with OpenSSL (node:crypto)', () => {
    const client = party(1);
    const server = party(2);
    const pkp = client.wire.decodePublicKeyPackage(json(client.wire.encodePublicKeyPackage(keys.publicKeyPackage)));
    for (const [i, serverWitness] of [true, false, true].entries()) {
      const m = new TextEncoder().encode(`message ${i}`);
      const c = client.suite.round1(client.keyPackage);
      const s = server.suite.round1(server.keyPackage);
      const c1 = server.wire.decodeSigningCommitments(json(client.wire.encodeSigningCommitments(c.commitments)));
      const c0 = client.wire.decodeSigningCommitments(json(server.wire.encodeSigningCommitments(s.commitments, serverWitness)));
      expect(c0.witness === undefined).toBe(!serverWitness);
      const share0 = server.suite.round2({ msg: m, keyPackage: server.keyPackage, nonces: s.nonces, commitments: [c1, s.commitments] });
      const share1 = client.suite.round2({ msg: m, keyPackage: client.keyPackage, nonces: c.nonces, commitments: [c.commitments, c0] });
      const sig = client.suite.aggregate({ msg: m, publicKeyPackage: pkp, commitments: [c.commitments, c0], signatureShares: { 1: share1, 2: share0 } });
      expect(opensslVerify(keys.publicKey, m, sig)).toBe(true);
      expect(opensslVerify(keys.publicKey, msg, sig)).toBe(false);
    }
  });
});
