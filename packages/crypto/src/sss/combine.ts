import { sha256 } from '@noble/hashes/sha2.js';
import { equalBytes } from '@noble/curves/utils.js';
import { combine } from 'shamir-secret-sharing';
import { assertBytes, assertInteger } from '../assert-input.js';
import { CryptoError } from '../errors.js';
import { type GfPoint, interpolateAt } from './gf256.js';
import { parseShares, pointToShare } from './share-format.js';

/** Returns true when a recovered secret is the expected one (e.g. its public key matches). */
export type SssVerify = (secret: Uint8Array) => boolean | Promise<boolean>;

/** What the caller knows about the secret being recovered. All optional. */
export interface SssExpectation {
  /** The sharing threshold t: fewer shares fail fast, extra shares are cross-checked. */
  threshold?: number;
  /** Check of the recovered secret; lets combine detect and name corrupted shares. */
  verify?: SssVerify;
}

/** A verify callback comparing SHA-256(secret) with a stored digest. */
export function expectSha256(digest: Uint8Array): SssVerify {
  assertBytes(digest, 'digest', 32);
  const expected = Uint8Array.from(digest);
  return (secret) => equalBytes(sha256(secret), expected);
}

// Bounds the subset search used to locate bad shares (C(n, t) grows fast; real n is small).
const MAX_SUBSETS = 2000;

/**
 * Recovers the secret from shares. Fails with a CryptoError instead of returning a wrong secret
 * whenever it can tell:
 * - NOT_ENOUGH_SHARES: fewer than 2 shares, fewer than `threshold`, or (threshold unknown) no
 *   subset reproduces a secret that passes `verify`.
 * - INVALID_SHARE: malformed shares, shares that are not on one polynomial (needs `threshold`
 *   and more than t shares), or a `verify` failure; when a subset passing `verify` exists the
 *   shares off its polynomial are named in `culprits` by x-coordinate.
 * Without `verify`, t-1 valid shares return an unrelated value: GF(256) Shamir cannot detect
 * that on its own, which is why callers should pass `verify` (e.g. {@link expectSha256}).
 */
export async function sssCombine(shares: readonly Uint8Array[], expected?: SssExpectation | SssVerify): Promise<Uint8Array> {
  const { threshold, verify } = normaliseExpectation(expected);
  const points = parseShares(shares);
  const need = threshold ?? 2;
  if (points.length < need) {
    throw new CryptoError('NOT_ENOUGH_SHARES', `got ${points.length} distinct shares, need at least ${need}`);
  }
  const consistent = threshold === undefined || onPolynomial(points.slice(0, threshold), points.slice(threshold)).length === 0;
  const secret = await combine(points.map(pointToShare));
  if (consistent && (!verify || (await verify(secret)))) return secret;
  secret.fill(0);
  if (!verify) throw new CryptoError('INVALID_SHARE', 'shares do not lie on one polynomial: at least one is corrupted (pass verify to find which)');

  const sizes = threshold !== undefined ? [threshold] : range(2, points.length - 1);
  const found = await findVerifiedSubset(points, sizes, verify);
  if (found) {
    found.fill(0);
    const bad = points.filter((p) => onPolynomial(found.subset, [p]).length > 0).map((p) => p.x);
    throw new CryptoError('INVALID_SHARE', `shares at x = ${bad.join(', ')} are corrupted`, bad);
  }
  if (threshold !== undefined) {
    throw new CryptoError('INVALID_SHARE', `no ${threshold} of the ${points.length} shares reconstruct the expected secret`);
  }
  throw new CryptoError('NOT_ENOUGH_SHARES', `the ${points.length} shares do not reconstruct the expected secret: fewer than the threshold, or corrupted`);
}

/** Shares among `others` that are not on the polynomial through `basis`. */
function onPolynomial(basis: readonly GfPoint[], others: readonly GfPoint[]): GfPoint[] {
  return others.filter((p) => !equalBytes(interpolateAt(basis, p.x), p.y));
}

async function findVerifiedSubset(points: readonly GfPoint[], sizes: number[], verify: SssVerify) {
  let budget = MAX_SUBSETS;
  for (const size of sizes) {
    for (const subset of combinations(points, size)) {
      if (budget-- <= 0) return undefined;
      const candidate = interpolateAt(subset, 0);
      if (await verify(candidate)) return Object.assign(candidate, { subset });
      candidate.fill(0);
    }
  }
  return undefined;
}

function* combinations<T>(items: readonly T[], k: number, start = 0, prefix: T[] = []): Generator<T[]> {
  if (prefix.length === k) {
    yield [...prefix];
    return;
  }
  for (let i = start; i <= items.length - (k - prefix.length); i++) {
    prefix.push(items[i] as T);
    yield* combinations(items, k, i + 1, prefix);
    prefix.pop();
  }
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

export function normaliseExpectation(expected: SssExpectation | SssVerify | undefined): SssExpectation {
  if (expected === undefined) return {};
  if (typeof expected === 'function') return { verify: expected };
  if (typeof expected !== 'object' || expected === null) {
    throw new CryptoError('INVALID_INPUT', 'expected must be a verify function or { threshold?, verify? }');
  }
  if (expected.threshold !== undefined) assertInteger(expected.threshold, 'expected.threshold', 2, 255);
  if (expected.verify !== undefined && typeof expected.verify !== 'function') {
    throw new CryptoError('INVALID_INPUT', 'expected.verify must be a function');
  }
  return expected;
}

/** Spec name of {@link sssCombine}. */
export const sss_combine = sssCombine;
