import { split } from 'shamir-secret-sharing';
import { assertBytes, assertInteger } from '../assert-input.js';
import { CryptoError } from '../errors.js';
import { interpolateAt } from './gf256.js';
import { parseXCoordinates, pointToShare, shareToPoint } from './share-format.js';

/**
 * Splits `secret` into `n` shares, any `t` of which recover it (GF(256) Shamir from
 * `shamir-secret-sharing`). Without `ids` the x-coordinates are random (the package's choice);
 * with `ids` (n distinct integers in 1..255, e.g. from {@link sssNodeXCoordinate}) share i sits
 * at x = ids[i], which lets a key share node's share be tied to its name.
 */
export async function sssSplit(secret: Uint8Array, n: number, t: number, ids?: readonly number[]): Promise<Uint8Array[]> {
  assertBytes(secret, 'secret');
  if (secret.length === 0) throw new CryptoError('INVALID_INPUT', 'secret must not be empty');
  assertInteger(n, 'n', 2, 255);
  assertInteger(t, 't', 2, n);
  if (ids === undefined) return split(secret, n, t);
  const xs = parseXCoordinates(ids, 'ids');
  if (xs.length !== n) throw new CryptoError('INVALID_INPUT', `ids must have n = ${n} entries, got ${xs.length}`);
  // t shares from the package pin down a fresh random polynomial of degree t-1 with f(0) =
  // secret; evaluating it at the requested x gives shares of that same polynomial.
  const base = (await split(secret, t, t)).map(shareToPoint);
  const shares = xs.map((x) => pointToShare({ x, y: interpolateAt(base, x) }));
  for (const p of base) p.y.fill(0);
  return shares;
}

/** Spec name of {@link sssSplit}. */
export const sss_split = sssSplit;
