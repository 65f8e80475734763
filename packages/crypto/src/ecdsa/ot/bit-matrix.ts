/*
 * Bit matrices of the OT extension, stored as 32-bit words with bit b of word w holding index
 * 32·w + b (LSB first). The extension produces 128 columns of m bits (one PRG stream per base
 * OT); the outputs need the m rows of 128 bits, so we transpose in 32×32 blocks with the
 * classic recursive block swap (5 passes of masked shifts per block, no per-bit loop).
 */

/** In-place transpose of a 32×32 bit block held in a[0..32] (row r = a[r], column c = bit c). */
export function transpose32(a: Uint32Array): void {
  let j = 16;
  let m = 0x0000ffff;
  while (j !== 0) {
    for (let k = 0; k < 32; k = (k + j + 1) & ~j) {
      const t = ((a[k]! >>> j) ^ a[k + j]!) & m;
      a[k + j] = a[k + j]! ^ t;
      a[k] = a[k]! ^ (t << j);
    }
    j >>>= 1;
    m ^= m << j;
  }
}

/**
 * Transposes 128 columns of `words` 32-bit words each (column j at cols[j·words ..]) into
 * 32·words rows of 128 bits (row i at out[4i .. 4i+4]).
 */
export function transposeColumns(cols: Uint32Array, words: number): Uint32Array {
  const out = new Uint32Array(words * 32 * 4);
  const blk = new Uint32Array(32);
  for (let w = 0; w < words; w++) {
    for (let v = 0; v < 4; v++) {
      for (let k = 0; k < 32; k++) blk[k] = cols[(32 * v + k) * words + w]!;
      transpose32(blk);
      const base = 32 * w;
      for (let k = 0; k < 32; k++) out[(base + k) * 4 + v] = blk[k]!;
    }
  }
  return out;
}

/** Bit i of a word vector. */
export const bitAt = (v: Uint32Array, i: number): number => (v[i >>> 5]! >>> (i & 31)) & 1;

/** Little-endian bytes of a word vector (the byte order our hashes see). */
export function wordsToBytes(w: Uint32Array): Uint8Array {
  const out = new Uint8Array(w.length * 4);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < w.length; i++) dv.setUint32(4 * i, w[i]!, true);
  return out;
}

export function bytesToWords(b: Uint8Array): Uint32Array {
  const out = new Uint32Array(b.length >>> 2);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = dv.getUint32(4 * i, true);
  return out;
}
