import { Fn, Point, type Pt, mulG, mulPublic } from '../common/group.js';

/*
 * Shamir polynomials of degree t−1 over the scalar field, and their coefficient commitments
 * (the same polynomial "in the exponent"). With t = 2 they have two coefficients; the code
 * keeps the general form so the degree checks read as in the spec.
 */

export type ScalarPoly = bigint[];
export type PointPoly = Pt[];

export function evalScalarPoly(p: readonly bigint[], x: number): bigint {
  const xs = Fn.create(BigInt(x));
  let acc = 0n;
  for (let i = p.length - 1; i >= 0; i--) acc = Fn.add(Fn.mul(acc, xs), p[i] as bigint);
  return acc;
}

/** Horner in the group; x is a public small identifier, so variable-time is fine. */
export function evalPointPoly(p: readonly Pt[], x: number): Pt {
  let acc = Point.ZERO;
  for (let i = p.length - 1; i >= 0; i--) acc = mulPublic(acc, BigInt(x)).add(p[i] as Pt);
  return acc;
}

export function commitPoly(p: readonly bigint[]): Pt[] {
  return p.map(mulG);
}

export function addPointPolys(a: readonly Pt[], b: readonly Pt[]): Pt[] {
  return a.map((c, i) => c.add(b[i] as Pt));
}
