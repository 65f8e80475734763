import { ed25519 } from '@noble/curves/ed25519.js';
import fc from 'fast-check';
import {
  CryptoError,
  ed25519Wire,
  fromHex,
  isLowerHex,
  keygenSeedEd25519,
  signRound1ClientEd25519,
  signRound1ServerEd25519,
  strictObject,
  toHex,
} from '../src/index.js';

// Encodings with known properties (RFC 8032 / curve25519 facts, not produced by our code).
const IDENTITY = '0100000000000000000000000000000000000000000000000000000000000000';
const ORDER_2 = 'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'; // y = -1
const ORDER_4 = '0000000000000000000000000000000000000000000000000000000000000000'; // y = 0
const NON_CANONICAL_Y = 'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'; // y = p + 1
const NOT_ON_CURVE = '0200000000000000000000000000000000000000000000000000000000000000'; // y = 2
const L = 'edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010'; // group order, LE

const keys = keygenSeedEd25519();
const { commitment1 } = signRound1ClientEd25519(keys.keygen1);
const server = signRound1ServerEd25519(keys.keygen2);
// A point with a small-order component: valid curve point, not in the prime-order subgroup.
const MIXED = toHex(ed25519.Point.fromBytes(keys.publicKey).add(ed25519.Point.fromHex(ORDER_2)).toBytes());

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof CryptoError) return e.code;
    throw e;
  }
  return 'none';
}
const json = <T>(v: T) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;

describe('hex', () => {
  test('round trip and strictness', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 80 }), (b) => expect(fromHex(toHex(b), 'x', b.length)).toEqual(b)));
    expect(codeOf(() => fromHex('ABCD', 'x'))).toBe('INVALID_ENCODING');
    expect(codeOf(() => fromHex('abc', 'x'))).toBe('INVALID_ENCODING');
    expect(codeOf(() => fromHex('0xab', 'x'))).toBe('INVALID_ENCODING');
    expect(codeOf(() => fromHex('abcd', 'x', 3))).toBe('INVALID_ENCODING');
    expect(codeOf(() => fromHex(12, 'x'))).toBe('INVALID_ENCODING');
  });

  test('isLowerHex: lowercase, even length, any size (the triple-generation blobs are megabytes)', () => {
    expect(['', 'ab', '0123456789abcdef', 'ab'.repeat(4 << 20)].map(isLowerHex)).toEqual([true, true, true, true]);
    expect(['a', 'AB', 'ag', '0x', ' ab', 'ab\n', 'ab'.repeat(4 << 20) + 'G0'].map(isLowerHex)).toEqual([false, false, false, false, false, false, false]);
  });

  test('strictObject rejects unknown and missing fields and non-objects', () => {
    expect(strictObject({ a: 1 }, 'o', ['a'])).toEqual({ a: 1 });
    expect(codeOf(() => strictObject({ a: 1, b: 2 }, 'o', ['a']))).toBe('INVALID_ENCODING');
    expect(codeOf(() => strictObject({}, 'o', ['a']))).toBe('INVALID_ENCODING');
    expect(codeOf(() => strictObject([], 'o', []))).toBe('INVALID_ENCODING');
    expect(codeOf(() => strictObject(null, 'o', []))).toBe('INVALID_ENCODING');
  });
});

describe('FROST Ed25519 objects round trip through JSON', () => {
  test('key packages, public key package, commitments, nonces, shares, signature', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
        const k = keygenSeedEd25519(seed);
        for (const kp of [k.keygen1, k.keygen2]) expect(ed25519Wire.decodeKeyPackage(json(ed25519Wire.encodeKeyPackage(kp)))).toEqual(kp);
        expect(ed25519Wire.decodePublicKeyPackage(json(ed25519Wire.encodePublicKeyPackage(k.publicKeyPackage)))).toEqual(k.publicKeyPackage);
      }),
      { numRuns: 25 },
    );
    expect(ed25519Wire.decodeSigningCommitments(json(ed25519Wire.encodeSigningCommitments(commitment1)))).toEqual(commitment1);
    expect(ed25519Wire.decodeSigningNonces(json(ed25519Wire.encodeSigningNonces(server.nonces)))).toEqual(server.nonces);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 252n }), fc.constantFrom(1 as const, 2 as const), (z, id) => {
        const share = ed25519.Point.Fn.toBytes(z);
        expect(ed25519Wire.decodeSignatureShare(json(ed25519Wire.encodeSignatureShare(id, share)))).toEqual({ identifier: id, share });
      }),
    );
    const sig = ed25519.sign(new Uint8Array([1]), ed25519.utils.randomSecretKey());
    expect(ed25519Wire.decodeSignature(json(ed25519Wire.encodeSignature(sig)))).toEqual(sig);
  });

  test('encoded objects carry version and ciphersuite and lowercase hex', () => {
    const wire = ed25519Wire.encodeSigningCommitments(server.commitment0);
    expect(wire).toMatchObject({ v: 1, ciphersuite: 'FROST-ED25519-SHA512-v1', identifier: 2 });
    expect(wire.hiding).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('strict decoding', () => {
  const commitments = json(ed25519Wire.encodeSigningCommitments(commitment1));
  const keyPackage = json(ed25519Wire.encodeKeyPackage(keys.keygen2));
  const pkp = json(ed25519Wire.encodePublicKeyPackage(keys.publicKeyPackage));
  const decode = (patch: Record<string, unknown>) => () => ed25519Wire.decodeSigningCommitments({ ...commitments, ...patch });

  test('header and fields', () => {
    expect(codeOf(decode({ v: 2 }))).toBe('UNSUPPORTED_VERSION');
    expect(codeOf(decode({ v: '1' }))).toBe('UNSUPPORTED_VERSION');
    expect(codeOf(decode({ ciphersuite: 'FROST-RISTRETTO255-SHA512-v1' }))).toBe('INVALID_ENCODING');
    expect(codeOf(decode({ extra: 1 }))).toBe('INVALID_ENCODING');
    expect(codeOf(decode({ identifier: 3 }))).toBe('INVALID_ENCODING');
    expect(codeOf(decode({ hiding: undefined }))).toBe('INVALID_ENCODING');
    expect(codeOf(() => ed25519Wire.decodeSigningCommitments('{"v":1}'))).toBe('INVALID_ENCODING');
    expect(codeOf(() => ed25519Wire.decodePublicKeyPackage({ ...pkp, verifying_shares: { '1': IDENTITY } }))).toBe('INVALID_ENCODING');
    expect(codeOf(() => ed25519Wire.decodeKeyPackage({ ...keyPackage, min_signers: 3 }))).toBe('INVALID_ENCODING');
  });

  test('lengths and hex', () => {
    expect(codeOf(decode({ hiding: (commitments.hiding as string).slice(2) }))).toBe('INVALID_ENCODING');
    expect(codeOf(decode({ hiding: (commitments.hiding as string).toUpperCase() }))).toBe('INVALID_ENCODING');
    expect(codeOf(() => ed25519Wire.decodeSignature({ v: 1, ciphersuite: 'FROST-ED25519-SHA512-v1', signature: 'ab'.repeat(63) }))).toBe('INVALID_ENCODING');
  });

  test('points: identity, small order, mixed order, non-canonical, off-curve', () => {
    for (const bad of [IDENTITY, ORDER_2, ORDER_4, MIXED, NON_CANONICAL_Y, NOT_ON_CURVE]) {
      expect([bad, codeOf(decode({ binding: bad }))]).toEqual([bad, 'INVALID_POINT']);
      expect(codeOf(() => ed25519Wire.decodeKeyPackage({ ...keyPackage, verifying_key: bad }))).toBe('INVALID_POINT');
    }
    const err = (() => {
      try {
        decode({ binding: ORDER_4 })();
      } catch (e) {
        return e as CryptoError;
      }
    })();
    expect(err?.culprits).toEqual([1]);
  });

  test('scalars: >= L and zero shares / nonces', () => {
    expect(codeOf(() => ed25519Wire.decodeKeyPackage({ ...keyPackage, signing_share: L }))).toBe('INVALID_SCALAR');
    expect(codeOf(() => ed25519Wire.decodeKeyPackage({ ...keyPackage, signing_share: '00'.repeat(32) }))).toBe('INVALID_SCALAR');
    expect(codeOf(() => ed25519Wire.decodeSignatureShare({ v: 1, ciphersuite: 'FROST-ED25519-SHA512-v1', identifier: 2, share: 'ff'.repeat(32) }))).toBe('INVALID_SCALAR');
    expect(codeOf(() => ed25519Wire.decodeSigningNonces({ v: 1, ciphersuite: 'FROST-ED25519-SHA512-v1', hiding: L, binding: L }))).toBe('INVALID_SCALAR');
    const sig = ed25519Wire.encodeSignature(ed25519.sign(new Uint8Array([1]), ed25519.utils.randomSecretKey()));
    expect(codeOf(() => ed25519Wire.decodeSignature({ ...sig, signature: sig.signature.slice(0, 64) + L }))).toBe('INVALID_SCALAR');
  });
});
