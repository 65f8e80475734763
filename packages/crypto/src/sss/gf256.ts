/**
 * GF(2^8) arithmetic with the AES polynomial x^8 + x^4 + x^3 + x + 1 (0x11b), the field that
 * `shamir-secret-sharing` uses. That package does not export its field operations, and we need
 * one it lacks: evaluating the sharing polynomial at a chosen x (extend / split at given ids).
 * Multiplication is a branch-free shift-and-add so timing does not depend on share bytes.
 */

/** a·b in GF(256). */
export function gfMul(a: number, b: number): number {
  let product = 0;
  for (let i = 0; i < 8; i++) {
    product ^= a & -(b & 1);
    // Multiply a by x, reducing by 0x11b when the top bit falls off.
    a = ((a << 1) ^ (0x1b & -(a >> 7))) & 0xff;
    b >>= 1;
  }
  return product;
}

/** a^-1 in GF(256) as a^254 (the multiplicative group has order 255). `a` must be non-zero. */
export function gfInv(a: number): number {
  if (a === 0) throw new RangeError('0 has no inverse in GF(256)');
  let result = 1;
  let base = a;
  for (let e = 254; e > 0; e >>= 1) {
    if (e & 1) result = gfMul(result, base);
    base = gfMul(base, base);
  }
  return result;
}

/** A point of the sharing polynomial: x-coordinate and one y byte per secret byte. */
export interface GfPoint {
  x: number;
  y: Uint8Array;
}

/**
 * Lagrange interpolation of the polynomial through `points` (distinct x), evaluated at `at`,
 * byte-wise: f(at) = Σ y_i · Π_{j≠i} (at − x_j)/(x_i − x_j); subtraction is XOR in GF(2^8).
 * The basis weights depend only on the x-coordinates, so they are computed once for all bytes.
 */
export function interpolateAt(points: readonly GfPoint[], at: number): Uint8Array {
  const first = points[0];
  if (!first) throw new RangeError('interpolation needs at least one point');
  const weights = points.map((pi, i) => {
    let num = 1;
    let den = 1;
    points.forEach((pj, j) => {
      if (i === j) return;
      num = gfMul(num, at ^ pj.x);
      den = gfMul(den, pi.x ^ pj.x);
    });
    return gfMul(num, gfInv(den));
  });
  const out = new Uint8Array(first.y.length);
  points.forEach((p, i) => {
    const w = weights[i] ?? 0;
    for (let k = 0; k < out.length; k++) out[k] = (out[k] ?? 0) ^ gfMul(p.y[k] ?? 0, w);
  });
  return out;
}
