import { CryptoError } from '../errors.js';
import { interpolateAt } from './gf256.js';
import { normaliseExpectation, sssCombine, type SssExpectation, type SssVerify } from './combine.js';
import { parseShares, parseXCoordinates, pointToShare } from './share-format.js';
import { sssSplit } from './split.js';

/**
 * Fresh n-of-t shares of the same secret on a new random polynomial: recovers the secret (with
 * the same checks as {@link sssCombine}) and splits it again. Old and new shares do not combine
 * with each other, so a leaked old share is useless once the old set is retired.
 */
export async function sssReshare(
  shares: readonly Uint8Array[],
  n: number,
  t: number,
  options: { expected?: SssExpectation | SssVerify; ids?: readonly number[] } = {},
): Promise<Uint8Array[]> {
  const secret = await sssCombine(shares, options.expected);
  try {
    return await sssSplit(secret, n, t, options.ids);
  } finally {
    secret.fill(0);
  }
}

/**
 * Shares for new holders at `newIds` on the existing polynomial; existing shares stay valid
 * and unchanged (used to replace a key share node that lost its data). Needs at least t of the
 * existing shares: from fewer, the result is on a different polynomial. Pass `expected` so the
 * input is checked first (threshold and/or verify) instead of silently extending garbage.
 */
export async function sssExtendShares(
  shares: readonly Uint8Array[],
  newIds: readonly number[],
  expected?: SssExpectation | SssVerify,
): Promise<Uint8Array[]> {
  const points = parseShares(shares);
  const ids = parseXCoordinates(newIds, 'newIds', new Set(points.map((p) => p.x)));
  if (points.length < 2) throw new CryptoError('NOT_ENOUGH_SHARES', `got ${points.length} distinct shares, need at least 2`);
  const exp = normaliseExpectation(expected);
  if (exp.threshold !== undefined || exp.verify !== undefined) (await sssCombine(shares, exp)).fill(0);
  return ids.map((x) => pointToShare({ x, y: interpolateAt(points, x) }));
}

/** Spec name of {@link sssReshare}. */
export const sss_reshare = sssReshare;
/** Spec name of {@link sssExtendShares}. */
export const sss_extend_shares = sssExtendShares;
