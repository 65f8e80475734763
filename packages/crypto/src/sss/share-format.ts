import { equalBytes } from '@noble/curves/utils.js';
import { CryptoError } from '../errors.js';
import type { GfPoint } from './gf256.js';

/*
 * The `shamir-secret-sharing` share format: the y bytes (one per secret byte) followed by the
 * x-coordinate (1..255) as the last byte. We keep that format so shares stay compatible with
 * the package's own combine().
 */

/** Splits a share into its x-coordinate and y bytes (no copy of y). */
export function shareToPoint(share: Uint8Array): GfPoint {
  return { x: share[share.length - 1] ?? 0, y: share.subarray(0, share.length - 1) };
}

/** Builds a share from x and y bytes. */
export function pointToShare(point: GfPoint): Uint8Array {
  const share = new Uint8Array(point.y.length + 1);
  share.set(point.y);
  share[point.y.length] = point.x;
  return share;
}

/**
 * Checks a list of shares: Uint8Arrays of one common length >= 2, x-coordinates in 1..255 and
 * pairwise distinct. Exact duplicates (the same share twice) are dropped; two different shares
 * with the same x are an INVALID_SHARE because at most one of them can be right.
 */
export function parseShares(shares: unknown): GfPoint[] {
  if (!Array.isArray(shares)) throw new CryptoError('INVALID_INPUT', 'shares must be an array of Uint8Array');
  const byX = new Map<number, GfPoint>();
  let length: number | undefined;
  shares.forEach((share: unknown, i) => {
    if (!(share instanceof Uint8Array)) throw new CryptoError('INVALID_INPUT', `shares[${i}] must be a Uint8Array`);
    if (share.length < 2) throw new CryptoError('INVALID_SHARE', `shares[${i}] is ${share.length} bytes; a share is at least 2`);
    length ??= share.length;
    if (share.length !== length) throw new CryptoError('INVALID_SHARE', `shares[${i}] is ${share.length} bytes, shares[0] is ${length}`);
    const point = shareToPoint(share);
    if (point.x === 0) throw new CryptoError('INVALID_SHARE', `shares[${i}] has x-coordinate 0, which would be the secret itself`);
    const seen = byX.get(point.x);
    if (seen && !equalBytes(seen.y, point.y)) {
      throw new CryptoError('INVALID_SHARE', `two different shares have x-coordinate ${point.x}`, [point.x]);
    }
    byX.set(point.x, point);
  });
  return [...byX.values()];
}

/** Validates a list of new x-coordinates: distinct integers in 1..255, none in `taken`. */
export function parseXCoordinates(ids: unknown, name: string, taken: ReadonlySet<number> = new Set()): number[] {
  if (!Array.isArray(ids)) throw new CryptoError('INVALID_INPUT', `${name} must be an array of integers in 1..255`);
  const seen = new Set<number>();
  for (const id of ids) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 255) {
      throw new CryptoError('INVALID_INPUT', `${name} must contain integers in 1..255, got ${String(id)}`);
    }
    if (seen.has(id) || taken.has(id)) throw new CryptoError('INVALID_INPUT', `${name}: x-coordinate ${id} is used twice`);
    seen.add(id);
  }
  return ids as number[];
}
