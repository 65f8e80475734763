import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { Signers } from '../../src/index.js';

export interface LocalSigners extends Signers {
  secp256k1SecretKey: Uint8Array;
  ed25519Seed: Uint8Array;
}

/**
 * Plain single-party keys behind the Signers seam, so the chain methods can be checked
 * before the threshold flows exist; the same tests will run with the threshold signers.
 * The secp256k1 signer deliberately returns high-s half of the time (as a threshold ECDSA
 * may) so the chain layer's normalisation is exercised.
 */
export function localSigners(
  secp256k1SecretKey = secp256k1.utils.randomSecretKey(),
  ed25519Seed = ed25519.utils.randomSecretKey(),
): LocalSigners {
  const { n } = secp256k1.Point.CURVE();
  let flip = false;
  return {
    secp256k1SecretKey,
    ed25519Seed,
    secp256k1: {
      publicKey: secp256k1.getPublicKey(secp256k1SecretKey, true),
      async signHash(hash32) {
        const sig = secp256k1.Signature.fromBytes(
          secp256k1.sign(hash32, secp256k1SecretKey, { prehash: false, format: 'recovered' }),
          'recovered',
        );
        const recovery = sig.recovery as 0 | 1;
        flip = !flip;
        if (!flip) return { r: toBytes32(sig.r), s: toBytes32(sig.s), recovery };
        return { r: toBytes32(sig.r), s: toBytes32(n - sig.s), recovery: recovery === 0 ? 1 : 0 };
      },
    },
    ed25519: {
      publicKey: ed25519.getPublicKey(ed25519Seed),
      async sign(message) {
        return ed25519.sign(message, ed25519Seed);
      },
    },
  };
}

export function toBytes32(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 31, v = value; i >= 0; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}
