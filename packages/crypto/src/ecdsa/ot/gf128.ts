/*
 * Carry-less multiplication of 128-bit blocks into a 256-bit accumulator, for the KOS
 * consistency check. As in cait-sith, products are summed unreduced: equality of sums in
 * GF(2)[X] implies equality in GF(2^128) and skipping the reduction saves work; GF(2)[X] has no
 * zero divisors, so the check keeps its soundness.
 *
 * One χ multiplies the same chunk position of all 128 columns, so its 32 bit-shifts are
 * precomputed once (`ChiShifts`) and each product is 128 masked 5-word XORs: branch-free in the
 * secret bits of the other operand.
 */

/** χ shifted left by s = 0..31 bits, 5 words each. */
export function chiShifts(chi: Uint32Array, off = 0): Uint32Array {
  const out = new Uint32Array(32 * 5);
  const c0 = chi[off]!, c1 = chi[off + 1]!, c2 = chi[off + 2]!, c3 = chi[off + 3]!;
  out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3; out[4] = 0;
  for (let s = 1; s < 32; s++) {
    const r = 32 - s;
    const o = 5 * s;
    out[o] = c0 << s;
    out[o + 1] = (c1 << s) | (c0 >>> r);
    out[o + 2] = (c2 << s) | (c1 >>> r);
    out[o + 3] = (c3 << s) | (c2 >>> r);
    out[o + 4] = c3 >>> r;
  }
  return out;
}

/** acc[accOff .. +8] ^= a[aOff .. +4] · χ (carry-less), with χ given by its shifts. */
export function clmulAcc(acc: Uint32Array, accOff: number, a: Uint32Array, aOff: number, sh: Uint32Array): void {
  let r0 = acc[accOff]!, r1 = acc[accOff + 1]!, r2 = acc[accOff + 2]!, r3 = acc[accOff + 3]!;
  let r4 = acc[accOff + 4]!, r5 = acc[accOff + 5]!, r6 = acc[accOff + 6]!, r7 = acc[accOff + 7]!;
  for (let w = 0; w < 4; w++) {
    const aw = a[aOff + w]!;
    for (let s = 0; s < 32; s++) {
      const m = -((aw >>> s) & 1);
      const o = 5 * s;
      const x0 = sh[o]! & m, x1 = sh[o + 1]! & m, x2 = sh[o + 2]! & m, x3 = sh[o + 3]! & m, x4 = sh[o + 4]! & m;
      // Word offset w is public (the loop index), only the mask depends on secret bits.
      if (w === 0) { r0 ^= x0; r1 ^= x1; r2 ^= x2; r3 ^= x3; r4 ^= x4; }
      else if (w === 1) { r1 ^= x0; r2 ^= x1; r3 ^= x2; r4 ^= x3; r5 ^= x4; }
      else if (w === 2) { r2 ^= x0; r3 ^= x1; r4 ^= x2; r5 ^= x3; r6 ^= x4; }
      else { r3 ^= x0; r4 ^= x1; r5 ^= x2; r6 ^= x3; r7 ^= x4; }
    }
  }
  acc[accOff] = r0; acc[accOff + 1] = r1; acc[accOff + 2] = r2; acc[accOff + 3] = r3;
  acc[accOff + 4] = r4; acc[accOff + 5] = r5; acc[accOff + 6] = r6; acc[accOff + 7] = r7;
}
