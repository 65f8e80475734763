import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { dealSecp256k1, keygenSeedEd25519, toHex, verifySecp256k1Share } from '../src/index.js';

// Recovery rebuilds the seed and re-runs keygen: it must give back the very same shares.
describe('deterministic 2-of-2 dealing', () => {
  it('gives the same Ed25519 key packages for the same seed, and different ones for another seed', () => {
    const seed = Uint8Array.from(randomBytes(32));
    const a = keygenSeedEd25519(seed);
    const b = keygenSeedEd25519(Uint8Array.from(seed));
    expect(toHex(b.keygen1.signingShare)).toBe(toHex(a.keygen1.signingShare));
    expect(toHex(b.keygen2.signingShare)).toBe(toHex(a.keygen2.signingShare));
    const other = keygenSeedEd25519(Uint8Array.from(randomBytes(32)));
    expect(toHex(other.keygen1.signingShare)).not.toBe(toHex(a.keygen1.signingShare));
  });

  it('does not make the share a simple function of the key alone: keygen_2 differs from 2·secret', () => {
    // With a1 = 0 the server share would be the secret itself (f(2) = s); a1 must be non-zero.
    const secret = secp256k1.utils.randomSecretKey();
    const deal = dealSecp256k1(secret);
    expect(toHex(deal.shares[1].secretShare)).not.toBe(toHex(secret));
    expect(toHex(deal.shares[0].secretShare)).not.toBe(toHex(secret));
  });

  it('gives the same secp256k1 shares and commitments for the same secret, still passing Feldman', () => {
    const secret = secp256k1.utils.randomSecretKey();
    const a = dealSecp256k1(secret);
    const b = dealSecp256k1(Uint8Array.from(secret));
    expect(b.commitments.map(toHex)).toEqual(a.commitments.map(toHex));
    expect(b.shares.map((s) => toHex(s.secretShare))).toEqual(a.shares.map((s) => toHex(s.secretShare)));
    for (const share of a.shares) expect(verifySecp256k1Share(share, a.commitments)).toBe(true);
  });
});
