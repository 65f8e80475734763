import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/curves/utils.js';
import { type CryptoError, SubgroupCheckCache, type SigningCommitments } from '../src/index.js';
import { codeOf, IDENTITY, IDENTITY_NEG_ZERO, json, keys, NON_CANONICAL_Y, opensslVerify, ORDER_2, ORDER_4, ORDER_8, P, party } from './ed25519-helpers.js';

const msg = new TextEncoder().encode('point cache');

describe('the point encodings used below', () => {
  test('are what their names say, by noble', () => {
    expect(P(ORDER_2).multiplyUnsafe(2n).is0()).toBe(true);
    expect(P(ORDER_4).multiplyUnsafe(4n).is0() && !P(ORDER_4).multiplyUnsafe(2n).is0()).toBe(true);
    expect(P(ORDER_8).multiplyUnsafe(8n).is0() && !P(ORDER_8).multiplyUnsafe(4n).is0()).toBe(true);
    expect(() => P(NON_CANONICAL_Y)).toThrow();
    expect(() => P(IDENTITY_NEG_ZERO)).toThrow();
  });
});

describe('subgroup-check cache of the Ed25519 suite', () => {
  test('a point is checked once, then served from the cache by its exact encoding', () => {
    const { suite } = party(2);
    const valid = P(bytesToHex(keys.publicKey)).multiply(7n).toBytes();
    expect(suite.checked?.has(valid)).toBe(false);
    suite.parsePoint(valid, 'p');
    expect(suite.checked?.has(valid)).toBe(true);
    expect(suite.parsePoint(valid, 'p').equals(P(bytesToHex(valid)))).toBe(true);
  });

  test("a party's own round-1 commitments are marked as checked; the peer's are not, until decoded", () => {
    const client = party(1);
    const server = party(2);
    const { commitments } = client.suite.round1(client.keyPackage);
    expect(client.suite.checked?.has(commitments.hiding)).toBe(true);
    expect(client.suite.checked?.has(commitments.binding)).toBe(true);
    expect(server.suite.checked?.has(commitments.hiding)).toBe(false);
    server.wire.decodeSigningCommitments(client.wire.encodeSigningCommitments(commitments));
    expect(server.suite.checked?.has(commitments.hiding)).toBe(true);
  });

  // The attack the cache must not open: a valid point is cached, then a commitment whose encoding
  // is a small-order point, that point plus torsion, or a non-canonical encoding arrives.
  const cachedThenBad: [string, (valid: Uint8Array) => string][] = [
    ['identity', () => IDENTITY],
    ['order 2', () => ORDER_2],
    ['order 4', () => ORDER_4],
    ['order 8', () => ORDER_8],
    ['the cached point plus an order-8 point (torsioned)', (v) => bytesToHex(P(bytesToHex(v)).add(P(ORDER_8)).toBytes())],
    ['the cached point plus an order-2 point (torsioned)', (v) => bytesToHex(P(bytesToHex(v)).add(P(ORDER_2)).toBytes())],
    ['non-canonical y = p + 1', () => NON_CANONICAL_Y],
    ['x = 0 with the sign bit set', () => IDENTITY_NEG_ZERO],
  ];

  test.each(cachedThenBad)('refuses a commitment point that is %s, right after a valid one was cached', (_name, bad) => {
    const client = party(1);
    const server = party(2);
    const c = client.suite.round1(client.keyPackage).commitments;
    const ok = server.wire.decodeSigningCommitments(client.wire.encodeSigningCommitments(c));
    expect(server.suite.checked?.has(ok.hiding)).toBe(true);
    const badHex = bad(ok.hiding);
    // Without a subgroup witness, as an older peer sends it: the decoder's own checks refuse it
    // (with one, the witness does: ed25519-subgroup-witness.test.ts).
    const tampered = { ...client.wire.encodeSigningCommitments(c, false), hiding: badHex };

    // The wire decoder (what tss-api and the SDK run on every received commitment).
    expect(codeOf(() => server.wire.decodeSigningCommitments(tampered))).toBe('INVALID_POINT');
    // Round 2 handed the point directly (noble's own checks, through the cached point class).
    const r = server.suite.round1(server.keyPackage);
    const badCommitment: SigningCommitments = { identifier: 1, hiding: hexToBytes(badHex), binding: c.binding };
    const err = (() => {
      try {
        server.suite.round2({ msg, keyPackage: server.keyPackage, nonces: r.nonces, commitments: [badCommitment, r.commitments] });
      } catch (e) {
        return e as CryptoError;
      }
      return undefined;
    })();
    expect(err?.code).toBe('INVALID_POINT');
    expect(err?.culprits).toEqual([1]);
    // noble's signShare through the suite's point class, bypassing our wrapper's checks.
    expect(() =>
      server.suite.frost.signShare(
        { identifier: server.suite.frost.Identifier.fromNumber(2), signingShare: server.keyPackage.signingShare as Uint8Array<ArrayBuffer> },
        { signers: { min: 2, max: 2 }, commitments: [server.keyPackage.verifyingKey as Uint8Array<ArrayBuffer>], verifyingShares: {} },
        server.suite.round1(server.keyPackage).nonces as { hiding: Uint8Array<ArrayBuffer>; binding: Uint8Array<ArrayBuffer> },
        [
          { identifier: server.suite.frost.Identifier.fromNumber(1), hiding: hexToBytes(badHex), binding: c.binding as Uint8Array<ArrayBuffer> },
          { identifier: server.suite.frost.Identifier.fromNumber(2), hiding: r.commitments.hiding as Uint8Array<ArrayBuffer>, binding: r.commitments.binding as Uint8Array<ArrayBuffer> },
        ],
        msg,
      ),
    ).toThrow();
    expect(server.suite.checked?.has(hexToBytes(badHex))).toBe(false);
  });

  test('a torsioned point is refused even when it is cached-adjacent: P cached, P + T8 and -P are different keys', () => {
    const { suite } = party(2);
    const p = P(bytesToHex(keys.publicKey)).multiply(11n);
    suite.parsePoint(p.toBytes(), 'p');
    expect(codeOf(() => suite.parsePoint(p.add(P(ORDER_8)).toBytes(), 'q'))).toBe('INVALID_POINT');
    // -P is a different, valid encoding (sign bit): checked on its own and accepted.
    expect(suite.checked?.has(p.negate().toBytes())).toBe(false);
    expect(codeOf(() => suite.parsePoint(p.negate().toBytes(), 'q'))).toBe('none');
  });

  test('is bounded: the oldest encoding goes first, a hit keeps an encoding', () => {
    const cache = new SubgroupCheckCache(2);
    const pts = [3n, 5n, 9n].map((k) => ed25519.Point.BASE.multiply(k));
    cache.set(pts[0]!.toBytes(), pts[0]!);
    cache.set(pts[1]!.toBytes(), pts[1]!);
    expect(cache.get(pts[0]!.toBytes())).toBe(pts[0]);
    cache.set(pts[2]!.toBytes(), pts[2]!);
    expect(cache.size).toBe(2);
    expect(cache.has(pts[0]!.toBytes())).toBe(true);
    expect(cache.has(pts[1]!.toBytes())).toBe(false);
    expect(() => new SubgroupCheckCache(0)).toThrow(RangeError);
  });

  test('signatures of two parties with their own caches verify with OpenSSL (node:crypto), many times over', () => {
    const client = party(1);
    const server = party(2);
    const pkp = client.wire.decodePublicKeyPackage(json(client.wire.encodePublicKeyPackage(keys.publicKeyPackage)));
    for (let i = 0; i < 5; i++) {
      const m = new TextEncoder().encode(`message ${i}`);
      const c = client.suite.round1(client.keyPackage);
      const s = server.suite.round1(server.keyPackage);
      const c1 = server.wire.decodeSigningCommitments(client.wire.encodeSigningCommitments(c.commitments));
      const c0 = client.wire.decodeSigningCommitments(server.wire.encodeSigningCommitments(s.commitments));
      const share0 = server.suite.round2({ msg: m, keyPackage: server.keyPackage, nonces: s.nonces, commitments: [c1, s.commitments] });
      const share1 = client.suite.round2({ msg: m, keyPackage: client.keyPackage, nonces: c.nonces, commitments: [c.commitments, c0] });
      const sig = client.suite.aggregate({ msg: m, publicKeyPackage: pkp, commitments: [c.commitments, c0], signatureShares: { 1: share1, 2: share0 } });
      expect(opensslVerify(keys.publicKey, m, sig)).toBe(true);
      expect(opensslVerify(keys.publicKey, new TextEncoder().encode(`other ${i}`), sig)).toBe(false);
    }
  });
});

describe("round 2 reuses round 1's products (nonce·G) instead of multiplying again", () => {
  /** noble's own base multiplications (constant-time, blinded) made by the suite while `fn` runs. */
  function nobleBaseMultiplications(suite: ReturnType<typeof party>['suite'], fn: () => unknown): number {
    const before = suite.counts!.baseMultiplications;
    fn();
    return suite.counts!.baseMultiplications - before;
  }
  const copy = (n: { hiding: Uint8Array; binding: Uint8Array }) => ({ hiding: Uint8Array.from(n.hiding), binding: Uint8Array.from(n.binding) });

  function setup() {
    const client = party(1);
    const server = party(2);
    const c = client.suite.round1(client.keyPackage);
    const commitment1 = server.wire.decodeSigningCommitments(client.wire.encodeSigningCommitments(c.commitments));
    return { client, server, commitment1 };
  }

  test('the same share as computed in full, without noble multiplying the own commitments again', () => {
    const { server, commitment1 } = setup();
    const r = server.suite.round1(server.keyPackage);
    const inFull = copy(r.nonces); // another object: round 1 recorded nothing for it
    const args = (nonces: typeof r.nonces) => ({ msg, keyPackage: server.keyPackage, nonces, commitments: [commitment1, r.commitments] });
    let remembered: Uint8Array | undefined;
    let computed: Uint8Array | undefined;
    expect(nobleBaseMultiplications(server.suite, () => (remembered = server.suite.round2(args(r.nonces))))).toBe(0);
    expect(nobleBaseMultiplications(server.suite, () => (computed = server.suite.round2(args(inFull))))).toBe(2);
    expect(bytesToHex(remembered!)).toBe(bytesToHex(computed!));
    // Round 1 itself: noble's two multiplications, as before.
    expect(nobleBaseMultiplications(server.suite, () => server.suite.round1(server.keyPackage))).toBe(2);
  });

  test("a commitment list that does not carry this round 1's commitments is still refused", () => {
    const { server, commitment1 } = setup();
    const sign = (nonces: { hiding: Uint8Array; binding: Uint8Array }, own: SigningCommitments) =>
      codeOf(() => server.suite.round2({ msg, keyPackage: server.keyPackage, nonces, commitments: [commitment1, own] }));
    const r = server.suite.round1(server.keyPackage);
    const other = server.suite.round1(server.keyPackage);
    expect(sign(copy(r.nonces), other.commitments)).toBe('INVALID_COMMITMENT');
    expect(sign(r.nonces, other.commitments)).toBe('INVALID_COMMITMENT'); // the remembered products are r's: refused all the same
    const swapped = server.suite.round1(server.keyPackage);
    expect(sign(swapped.nonces, { identifier: 2, hiding: swapped.commitments.binding, binding: swapped.commitments.hiding })).toBe('INVALID_COMMITMENT');
  });

  test('nonces changed in place since round 1 are multiplied in full: a product serves only its own scalar', () => {
    const { client, server, commitment1 } = setup();
    const r = server.suite.round1(server.keyPackage);
    const other = server.suite.round1(server.keyPackage);
    // r's nonce objects now hold other's nonces; round 1 recorded r's products for these objects.
    r.nonces.hiding.set(other.nonces.hiding);
    r.nonces.binding.set(other.nonces.binding);
    expect(codeOf(() => server.suite.round2({ msg, keyPackage: server.keyPackage, nonces: r.nonces, commitments: [commitment1, r.commitments] }))).toBe(
      'INVALID_COMMITMENT',
    );
    // With other's commitments the share is right, and the signature verifies with OpenSSL.
    const c = client.suite.round1(client.keyPackage);
    const c1 = server.wire.decodeSigningCommitments(client.wire.encodeSigningCommitments(c.commitments));
    const c0 = client.wire.decodeSigningCommitments(server.wire.encodeSigningCommitments(other.commitments));
    const share0 = server.suite.round2({ msg, keyPackage: server.keyPackage, nonces: r.nonces, commitments: [c1, other.commitments] });
    const share1 = client.suite.round2({ msg, keyPackage: client.keyPackage, nonces: c.nonces, commitments: [c.commitments, c0] });
    const pkp = client.wire.decodePublicKeyPackage(json(client.wire.encodePublicKeyPackage(keys.publicKeyPackage)));
    const sig = client.suite.aggregate({ msg, publicKeyPackage: pkp, commitments: [c.commitments, c0], signatureShares: { 1: share1, 2: share0 } });
    expect(opensslVerify(keys.publicKey, msg, sig)).toBe(true);
  });

  test('the products serve one round 2; a round 2 refused for a bad peer point can be retried, in full', () => {
    const { server, commitment1 } = setup();
    const r = server.suite.round1(server.keyPackage);
    const expected = server.suite.round2({ msg, keyPackage: server.keyPackage, nonces: copy(r.nonces), commitments: [commitment1, r.commitments] });
    const bad: SigningCommitments = { identifier: 1, hiding: hexToBytes(ORDER_8), binding: commitment1.binding };
    expect(codeOf(() => server.suite.round2({ msg, keyPackage: server.keyPackage, nonces: r.nonces, commitments: [bad, r.commitments] }))).toBe('INVALID_POINT');
    let share: Uint8Array | undefined;
    expect(nobleBaseMultiplications(server.suite, () => (share = server.suite.round2({ msg, keyPackage: server.keyPackage, nonces: r.nonces, commitments: [commitment1, r.commitments] })))).toBe(2);
    expect(bytesToHex(share!)).toBe(bytesToHex(expected));
    // noble zeroed the nonces on success: a third round 2 is refused, with or without products.
    expect(codeOf(() => server.suite.round2({ msg, keyPackage: server.keyPackage, nonces: r.nonces, commitments: [commitment1, r.commitments] }))).not.toBe('none');
  });
});
