import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { combine } from 'shamir-secret-sharing';
import {
  CryptoError,
  expectSha256,
  sss_combine,
  sss_extend_shares,
  sss_reshare,
  sss_split,
  sssCombine,
  sssExtendShares,
  sssNodeXCoordinate,
  sssReshare,
  sssSplit,
} from '../src/index.js';
import { gfInv, gfMul, interpolateAt } from '../src/sss/gf256.js';

const secretArb = fc.uint8Array({ minLength: 16, maxLength: 48 });
// n in 2..7, t in 2..n, plus a shuffle seed to pick which shares to use.
const schemeArb = fc.integer({ min: 2, max: 7 }).chain((n) => fc.record({ n: fc.constant(n), t: fc.integer({ min: 2, max: n }) }));
const eq = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CryptoError) return e.code;
    throw e;
  }
  return 'none';
}

describe('GF(256)', () => {
  test('every non-zero element times its inverse is 1; 0x53·0xca = 1 (FIPS 197 example)', () => {
    for (let a = 1; a < 256; a++) expect(gfMul(a, gfInv(a))).toBe(1);
    expect(gfMul(0x53, 0xca)).toBe(1);
    expect(gfMul(0x57, 0x83)).toBe(0xc1); // FIPS 197 §4.2
  });

  test('interpolation at 0 agrees with the package combine()', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const shares = await sssSplit(secret, 4, 3);
    const points = shares.slice(1).map((s) => ({ x: s[s.length - 1]!, y: s.subarray(0, -1) }));
    expect(eq(interpolateAt(points, 0), await combine(shares.slice(1)))).toBe(true);
  });
});

describe('split / combine', () => {
  test('any t of n shares recover the secret; t-1 do not', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, schemeArb, fc.infiniteStream(fc.nat()), async (secret, { n, t }, picks) => {
        const shares = await sss_split(secret, n, t);
        const order = [...shares].sort(() => (picks.next().value % 3) - 1);
        const verify = expectSha256(sha256(secret));
        expect(eq(await sss_combine(order.slice(0, t), { threshold: t, verify }), secret)).toBe(true);
        expect(eq(await sssCombine(order.slice(0, t)), secret)).toBe(true);
        if (t > 2) expect(eq(await sssCombine(order.slice(0, t - 1)), secret)).toBe(false);
        expect(await codeOf(sssCombine(order.slice(0, t - 1), { threshold: t }))).toBe('NOT_ENOUGH_SHARES');
        if (t > 2) expect(await codeOf(sssCombine(order.slice(0, t - 1), verify))).toBe('NOT_ENOUGH_SHARES');
      }),
      { numRuns: 60 },
    );
  });

  test('split at given ids puts share i at x = ids[i]', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, fc.uniqueArray(fc.integer({ min: 1, max: 255 }), { minLength: 3, maxLength: 6 }), async (secret, ids) => {
        const shares = await sssSplit(secret, ids.length, 3, ids);
        expect(shares.map((s) => s[s.length - 1])).toEqual(ids);
        expect(eq(await combine([shares[2]!, shares[0]!, shares[1]!]), secret)).toBe(true);
        expect(eq(await combine(shares.slice(-3)), secret)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  test('a corrupted share is INVALID_SHARE naming its x-coordinate', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const shares = await sssSplit(secret, 5, 3, [11, 22, 33, 44, 55]);
    const bad = shares.map((s) => s.slice());
    bad[3]![5]! ^= 0x40;
    const verify = expectSha256(sha256(secret));
    const err = await sssCombine(bad, { threshold: 3, verify }).catch((e: CryptoError) => e);
    expect(err).toBeInstanceOf(CryptoError);
    expect((err as CryptoError).code).toBe('INVALID_SHARE');
    expect((err as CryptoError).culprits).toEqual([44]);
    // Without verify, extra shares still reveal the inconsistency.
    expect(await codeOf(sssCombine(bad, { threshold: 3 }))).toBe('INVALID_SHARE');
    // A wrong secret from exactly t shares is caught by verify.
    expect(await codeOf(sssCombine(bad.slice(2, 5), { threshold: 3, verify }))).toBe('INVALID_SHARE');
  });

  test('malformed shares and arguments are rejected with codes', async () => {
    const shares = await sssSplit(new Uint8Array([1, 2, 3]), 3, 2);
    expect(await codeOf(sssCombine([shares[0]!]))).toBe('NOT_ENOUGH_SHARES');
    expect(await codeOf(sssCombine([shares[0]!, shares[1]!.slice(1)]))).toBe('INVALID_SHARE');
    const sameX = shares[1]!.slice();
    sameX[sameX.length - 1] = shares[0]![shares[0]!.length - 1]!;
    expect(await codeOf(sssCombine([shares[0]!, sameX]))).toBe('INVALID_SHARE');
    const zeroX = shares[1]!.slice();
    zeroX[zeroX.length - 1] = 0;
    expect(await codeOf(sssCombine([shares[0]!, zeroX]))).toBe('INVALID_SHARE');
    expect(await codeOf(sssCombine('x' as unknown as Uint8Array[]))).toBe('INVALID_INPUT');
    expect(await codeOf(sssCombine([shares[0]!, [1, 2] as unknown as Uint8Array]))).toBe('INVALID_INPUT');
    expect(await codeOf(sssCombine(shares, { threshold: 1 }))).toBe('INVALID_INPUT');
    expect(await codeOf(sssSplit(new Uint8Array(0), 3, 2))).toBe('INVALID_INPUT');
    expect(await codeOf(sssSplit(new Uint8Array(4), 3, 4))).toBe('INVALID_INPUT');
    expect(await codeOf(sssSplit(new Uint8Array(4), 256, 2))).toBe('INVALID_INPUT');
    expect(await codeOf(sssSplit(new Uint8Array(4), 2, 2, [1, 1]))).toBe('INVALID_INPUT');
    expect(await codeOf(sssSplit(new Uint8Array(4), 2, 2, [0, 1]))).toBe('INVALID_INPUT');
    expect(await codeOf(sssSplit(new Uint8Array(4), 3, 2, [1, 2]))).toBe('INVALID_INPUT');
    expect(await codeOf(sssSplit('abc' as unknown as Uint8Array, 3, 2))).toBe('INVALID_INPUT');
  });
});

describe('reshare / extend', () => {
  test('reshare keeps the secret; old and new shares do not mix', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, schemeArb, schemeArb, async (secret, old, next) => {
        const shares = await sssSplit(secret, old.n, old.t);
        const fresh = await sss_reshare(shares.slice(0, old.t), next.n, next.t, { expected: { threshold: old.t } });
        expect(eq(await sssCombine(fresh.slice(-next.t)), secret)).toBe(true);
        if (next.t > 2) {
          const oldXs = new Set(shares.map((s) => s[s.length - 1]));
          const mixed = [shares[0]!, ...fresh.filter((s) => !oldXs.has(s[s.length - 1])).slice(0, next.t - 1)];
          if (mixed.length === next.t) expect(eq(await sssCombine(mixed), secret)).toBe(false);
        }
      }),
      { numRuns: 40 },
    );
  });

  test('reshare to named nodes keeps the secret', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const shares = await sssSplit(secret, 3, 2);
    const ids = [7, 8, 9, 10];
    const fresh = await sssReshare(shares, 4, 3, { ids, expected: expectSha256(sha256(secret)) });
    expect(fresh.map((s) => s[s.length - 1])).toEqual(ids);
    expect(eq(await sssCombine(fresh.slice(1)), secret)).toBe(true);
  });

  test('extended shares combine with the untouched existing ones', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, schemeArb, fc.uniqueArray(fc.integer({ min: 1, max: 255 }), { minLength: 1, maxLength: 3 }), async (secret, { n, t }, wanted) => {
        const shares = await sssSplit(secret, n, t);
        const taken = new Set(shares.map((s) => s[s.length - 1]));
        const newIds = wanted.filter((x) => !taken.has(x));
        if (newIds.length === 0) return;
        const extra = await sss_extend_shares(shares.slice(0, t), newIds, { threshold: t });
        expect(extra.map((s) => s[s.length - 1])).toEqual(newIds);
        // One new share + t-1 old shares (not those used to extend, where possible).
        expect(eq(await sssCombine([extra[0]!, ...shares.slice(-(t - 1))]), secret)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  test('extend refuses x-coordinates already in use and too few shares', async () => {
    const shares = await sssSplit(new Uint8Array([9, 9, 9]), 3, 2, [1, 2, 3]);
    expect(await codeOf(sssExtendShares(shares, [2]))).toBe('INVALID_INPUT');
    expect(await codeOf(sssExtendShares(shares, [4, 4]))).toBe('INVALID_INPUT');
    expect(await codeOf(sssExtendShares(shares.slice(0, 1), [4]))).toBe('NOT_ENOUGH_SHARES');
    expect(await codeOf(sssExtendShares(shares.slice(0, 2), [4], { threshold: 3 }))).toBe('NOT_ENOUGH_SHARES');
  });
});

describe('node x-coordinate', () => {
  test('1 + SHA-256(name)[0] mod 255, always in 1..255', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (name) => {
        const x = sssNodeXCoordinate(name);
        expect(x).toBe(1 + (sha256(new TextEncoder().encode(name))[0]! % 255));
        expect(x >= 1 && x <= 255).toBe(true);
      }),
    );
    expect(() => sssNodeXCoordinate('')).toThrow(CryptoError);
  });
});
