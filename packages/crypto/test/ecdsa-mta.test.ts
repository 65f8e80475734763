import fc from 'fast-check';
import { Fn, ORDER } from '../src/ecdsa/common/group.js';
import { MTA_OTS, mtaReceiverFinish, mtaReceiverPrepare, mtaSend } from '../src/ecdsa/triples/mta.js';

// The MtA on its own, with the random OTs simulated: the receiver with choice bits t learns
// v^{t_i}_i of the sender's pairs (v⁰_i, v¹_i). Its sums are reduced once at the end, so the
// inputs at the edges of the field (0, 1, n − 1) and arbitrary choice bits are what can break it.

const scalar = fc.oneof(fc.constantFrom(0n, 1n, ORDER - 1n), fc.bigInt({ min: 0n, max: ORDER - 1n }));
const bits = fc.array(fc.integer({ min: 0, max: 1 }), { minLength: MTA_OTS, maxLength: MTA_OTS });
const outputs = fc.array(scalar, { minLength: MTA_OTS, maxLength: MTA_OTS });

function run(a: bigint, b: bigint, t: number[], v0: bigint[], v1: bigint[]) {
  const vt = t.map((bit, i) => (bit === 1 ? v1[i]! : v0[i]!));
  const part = mtaReceiverPrepare(t, vt, b);
  const sent = mtaSend(v0, v1, a, part.chi1, part.seed);
  return { part, sent, beta: mtaReceiverFinish(t, part, sent.c0, sent.c1) };
}

describe('MtA (multiplicative to additive)', () => {
  it('gives additive shares of a·b, every value a canonical scalar', () => {
    fc.assert(
      fc.property(scalar, scalar, bits, outputs, outputs, (a, b, t, v0, v1) => {
        const { part, sent, beta } = run(a, b, t, v0, v1);
        expect(Fn.add(sent.alpha, beta)).toBe(Fn.mul(a, b));
        for (const x of [sent.alpha, beta, part.chi1, part.sumChiV, ...sent.c0, ...sent.c1]) {
          expect(x >= 0n && x < ORDER).toBe(true);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('lets a shifted c move the result, which triple generation then catches (C = L(0))', () => {
    const t = Array.from({ length: MTA_OTS }, (_, i) => i % 2);
    const v = Array.from({ length: MTA_OTS }, (_, i) => BigInt(i + 7));
    const { part, sent } = run(5n, 9n, t, v, v.map((x) => x + 3n));
    const c0 = [...sent.c0];
    const c1 = [...sent.c1];
    c0[0] = Fn.add(c0[0]!, 1n);
    c1[0] = Fn.add(c1[0]!, 1n);
    expect(Fn.add(sent.alpha, mtaReceiverFinish(t, part, c0, c1))).not.toBe(45n);
  });
});
