import { bytesToNumberBE } from '@noble/curves/utils.js';
import fc from 'fast-check';
import { Fn, bigIntFromBytes, reduceBytes } from '../src/ecdsa/common/group.js';

// The fast bytes-to-integer reading behind every OT and MtA scalar must give noble's value.
describe('bigIntFromBytes', () => {
  test('equals noble bytesToNumberBE for any bytes, any length and offset into a buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat({ max: 7 }), (bytes, offset) => {
        const buf = new Uint8Array(offset + bytes.length);
        buf.set(bytes, offset);
        const view = buf.subarray(offset);
        expect(bigIntFromBytes(view)).toBe(bytes.length === 0 ? 0n : bytesToNumberBE(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  test('the extremes of 32 and 48 bytes, and their reduction mod n', () => {
    for (const len of [32, 48]) {
      const ones = new Uint8Array(len).fill(0xff);
      expect(bigIntFromBytes(ones)).toBe((1n << BigInt(8 * len)) - 1n);
      expect(reduceBytes(ones)).toBe(((1n << BigInt(8 * len)) - 1n) % Fn.ORDER);
      expect(bigIntFromBytes(new Uint8Array(len))).toBe(0n);
    }
  });
});
