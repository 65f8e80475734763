import { CryptoError } from '../../errors.js';
import { type Pt, randomScalar } from '../common/group.js';
import { commitPoly } from './polynomial.js';
import { THRESHOLD } from './triple-gen-common.js';
import { decArray, decScalar, decStatePoint, encScalar, encStatePoint } from '../common/wire.js';

/*
 * Each party's random polynomials of triple generation (round 1): e and f of degree t−1, l with
 * l(0) = 0, and their coefficient commitments E, F, L, one set per triple in the batch, plus
 * their persisted encoding (the commitments are stored, not recomputed: 5 base multiplications
 * per triple saved on every step).
 */

export interface PolySecrets {
  e: bigint[][];
  f: bigint[][];
  l: bigint[][];
  E: Pt[][];
  F: Pt[][];
  L: Pt[][];
}

export function freshPolys(count: number): PolySecrets {
  const rnd = () => Array.from({ length: THRESHOLD }, randomScalar);
  const e = Array.from({ length: count }, rnd);
  const f = Array.from({ length: count }, rnd);
  const l = Array.from({ length: count }, () => [0n, ...Array.from({ length: THRESHOLD - 1 }, randomScalar)]);
  return { e, f, l, E: e.map(commitPoly), F: f.map(commitPoly), L: l.map(commitPoly) };
}

export function encodePolySecrets(p: PolySecrets) {
  const s = (x: bigint[][]) => x.map((c) => c.map(encScalar));
  const g = (x: Pt[][]) => x.map((c) => c.map(encStatePoint));
  return { e: s(p.e), f: s(p.f), l: s(p.l), big_e: g(p.E), big_f: g(p.F), big_l: g(p.L) };
}

export function decodePolySecrets(v: unknown, count: number): PolySecrets {
  if (typeof v !== 'object' || v === null) throw new CryptoError('INVALID_INPUT', 'state polys missing');
  const o = v as Record<string, unknown>;
  const d = { culprits: [] };
  // l(0) is stored as the zero scalar, which decScalar accepts (it is < n).
  const s = (x: unknown, f: string) => decArray(x, f, count, d, (c, g) => decArray(c, g, THRESHOLD, d, (y, h) => decScalar(y, h, d)));
  const g = (x: unknown, f: string, id = false) => decArray(x, f, count, d, (c, h) => decArray(c, h, THRESHOLD, d, (y, k) => decStatePoint(y, k, d, id)));
  return { e: s(o.e, 'e'), f: s(o.f, 'f'), l: s(o.l, 'l'), E: g(o.big_e, 'big_e'), F: g(o.big_f, 'big_f'), L: g(o.big_l, 'big_l', true) };
}
