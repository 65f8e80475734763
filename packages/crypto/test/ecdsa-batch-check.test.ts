import { Fn, firstFailingBaseCheck, G, mulG, randomScalar } from '../src/ecdsa/common/group.js';

// The batched check behind E(i) = a_i·G, F(i) = b_i·G and L(i) = c_i·G in triple generation.
describe('firstFailingBaseCheck (Σ r_k·P_k = (Σ r_k·s_k)·G with random r_k)', () => {
  const secrets = Array.from({ length: 16 }, () => randomScalar());
  const points = secrets.map((s) => mulG(s));

  test('passes when every P_k = s_k·G', () => {
    expect(firstFailingBaseCheck(points, secrets)).toBe(-1);
    expect(firstFailingBaseCheck([], [])).toBe(-1);
  });

  test('names the first failing index', () => {
    for (const bad of [0, 7, 15]) {
      const tampered = points.map((p, k) => (k === bad ? p.add(G) : p));
      expect(firstFailingBaseCheck(tampered, secrets)).toBe(bad);
    }
  });

  test('is not fooled by errors that cancel in a plain sum (P_3 + D, P_9 − D)', () => {
    const D = mulG(randomScalar());
    const tampered = points.map((p, k) => (k === 3 ? p.add(D) : k === 9 ? p.subtract(D) : p));
    // A sum without random weights would accept this: Σ P_k = (Σ s_k)·G still holds.
    expect(tampered.reduce((a, p) => a.add(p)).equals(mulG(secrets.reduce((a, s) => Fn.add(a, s))))).toBe(true);
    expect(firstFailingBaseCheck(tampered, secrets)).toBe(3);
  });

  test('refuses lists of different lengths', () => {
    expect(() => firstFailingBaseCheck(points, secrets.slice(1))).toThrow(RangeError);
  });
});
