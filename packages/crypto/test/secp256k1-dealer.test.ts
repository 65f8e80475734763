import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/curves/utils.js';
import { CryptoError, dealSecp256k1, verifySecp256k1Share } from '../src/index.js';

const N = secp256k1.Point.Fn.ORDER;
const toBig = (b: Uint8Array) => BigInt('0x' + bytesToHex(b));

describe('dealSecp256k1', () => {
  const secret = secp256k1.utils.randomSecretKey();
  const deal = dealSecp256k1(secret);

  test('public key is the compressed public key of the secret', () => {
    expect(deal.publicKey).toHaveLength(33);
    expect(bytesToHex(deal.publicKey)).toBe(bytesToHex(secp256k1.getPublicKey(secret, true)));
    expect(deal.commitments).toHaveLength(2);
    expect(bytesToHex(deal.commitments[0]!)).toBe(bytesToHex(deal.publicKey));
  });

  test('shares sit on a line through the secret: 2·f(1) − f(2) = secret mod n', () => {
    const [s1, s2] = deal.shares;
    expect([s1.identifier, s2.identifier]).toEqual([1, 2]);
    expect(s1.secretShare).toHaveLength(32);
    const recovered = (((2n * toBig(s1.secretShare) - toBig(s2.secretShare)) % N) + N) % N;
    expect(recovered).toBe(toBig(secret));
  });

  test('verifySecp256k1Share accepts the dealt shares and rejects others', () => {
    expect(verifySecp256k1Share(deal.shares[0], deal.commitments)).toBe(true);
    expect(verifySecp256k1Share(deal.shares[1], deal.commitments)).toBe(true);
    expect(verifySecp256k1Share({ identifier: 2, secretShare: deal.shares[0].secretShare }, deal.commitments)).toBe(false);
    const otherSecret = secp256k1.utils.randomSecretKey();
    expect(verifySecp256k1Share(deal.shares[0], dealSecp256k1(otherSecret).commitments)).toBe(false);
  });

  test('the dealing is deterministic in the secret (recovery re-derives the same shares)', () => {
    const again = dealSecp256k1(secret);
    expect(bytesToHex(again.publicKey)).toBe(bytesToHex(deal.publicKey));
    expect(bytesToHex(again.shares[0].secretShare)).toBe(bytesToHex(deal.shares[0].secretShare));
  });

  test('rejects zero, >= n, wrong lengths and types', () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as CryptoError).code;
      }
      return 'none';
    };
    expect(code(() => dealSecp256k1(new Uint8Array(32)))).toBe('INVALID_SCALAR');
    expect(code(() => dealSecp256k1(hexToBytes(N.toString(16))))).toBe('INVALID_SCALAR');
    expect(code(() => dealSecp256k1(new Uint8Array(31)))).toBe('INVALID_INPUT');
    expect(code(() => dealSecp256k1('00' as unknown as Uint8Array))).toBe('INVALID_INPUT');
    expect(code(() => verifySecp256k1Share({ identifier: 3 as 1, secretShare: new Uint8Array(32) }, deal.commitments))).toBe('INVALID_INPUT');
    expect(code(() => verifySecp256k1Share(deal.shares[0], [deal.publicKey]))).toBe('INVALID_INPUT');
    expect(code(() => verifySecp256k1Share(deal.shares[0], [deal.publicKey, new Uint8Array(33)]))).toBe('INVALID_POINT');
  });
});
