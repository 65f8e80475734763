// signCombine, the one combination of two ECDSA signature shares, with either party as combiner:
// known answers (test/vectors/ecdsa-sign-combine-kat.json, computed without src/ecdsa) checked
// again with noble (verification, public-key recovery), and the checks that refuse a bad peer share.
import { readFileSync } from 'node:fs';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { type Presignature, type EcdsaSignature, presignatureR, signCombine, signShareClient, signShareServer } from '../src/ecdsa/index.js';
import { json } from './ecdsa-helpers.js';

interface Vector {
  secret_key: string;
  public_key: string;
  presignatures: { client: Presignature; server: Presignature };
  cases: { message: string; msg_hash: string; expected: { r: string; s: string; recovery_id: number } }[];
}
const kat = JSON.parse(readFileSync(new URL('./vectors/ecdsa-sign-combine-kat.json', import.meta.url), 'utf8')) as Vector;
const publicKey = hexToBytes(kat.public_key);
const fresh = () => json(kat.presignatures);
const answer = (sig: EcdsaSignature) => ({ r: bytesToHex(sig.signature.slice(0, 32)), s: bytesToHex(sig.signature.slice(32)), recovery_id: sig.recovery });

/** The server combines: the client sends only its hex share (tss-api's msgs_1). */
function serverCombines(h: Uint8Array): EcdsaSignature {
  const p = fresh();
  return signCombine(p.server, h, signShareClient(p.client, h).signature_share, publicKey);
}
/** The client combines: the server sends its sign/share message. */
function clientCombines(h: Uint8Array): EcdsaSignature {
  const p = fresh();
  return signCombine(p.client, h, json(signShareServer(p.server, h)));
}

describe('signCombine: known answers', () => {
  test('the vector is self-consistent: its key is x·G and each hash is SHA-256 of its message', () => {
    expect(bytesToHex(secp256k1.getPublicKey(hexToBytes(kat.secret_key), true))).toBe(kat.public_key);
    for (const c of kat.cases) expect(bytesToHex(sha256(utf8ToBytes(c.message)))).toBe(c.msg_hash);
    // One case had a high s before normalisation: the flip of s and of the recovery id is covered.
    expect(kat.cases.map((c) => c.expected.recovery_id).sort()).toEqual([0, 1]);
  });

  for (const [who, combine] of [['server', serverCombines], ['client', clientCombines]] as const) {
    test(`the ${who} as combiner gets the pinned (r, s, recovery_id)`, () => {
      for (const c of kat.cases) {
        const h = hexToBytes(c.msg_hash);
        const sig = combine(h);
        expect(answer(sig)).toEqual(c.expected);
        expect(sig.r).toBe(BigInt(`0x${c.expected.r}`));
        expect(sig.s).toBe(BigInt(`0x${c.expected.s}`));
      }
    });
  }

  test('the pinned signatures verify with noble (low s) and recover the public key', () => {
    for (const c of kat.cases) {
      const h = hexToBytes(c.msg_hash);
      const compact = hexToBytes(c.expected.r + c.expected.s);
      expect(secp256k1.verify(compact, h, publicKey, { prehash: false, lowS: true })).toBe(true);
      const recovered = secp256k1.Signature.fromBytes(compact, 'compact').addRecoveryBit(c.expected.recovery_id).recoverPublicKey(h);
      expect(bytesToHex(recovered.toBytes(true))).toBe(kat.public_key);
    }
  });

  test('presignatureR is the pinned r, before and after the presignature is spent', () => {
    const p = fresh();
    expect(bytesToHex(presignatureR(p.client))).toBe(kat.cases[0]!.expected.r);
    signShareClient(p.client, hexToBytes(kat.cases[0]!.msg_hash));
    expect(p.client.consumed).toBe(true);
    expect(bytesToHex(presignatureR(p.client))).toBe(kat.cases[0]!.expected.r);
  });
});

describe('signCombine: the server as combiner refuses a bad client share (culprit: client)', () => {
  const h = hexToBytes(kat.cases[0]!.msg_hash);
  const n = secp256k1.Point.Fn.ORDER;

  test('a wrong share fails verification and spends the presignature', () => {
    const p = fresh();
    const share = BigInt(`0x${signShareClient(p.client, h).signature_share}`);
    const wrong = ((share + 1n) % n).toString(16).padStart(64, '0');
    expect(() => signCombine(p.server, h, wrong, publicKey)).toThrow(
      expect.objectContaining({ code: 'INVALID_SIGNATURE_SHARE', culprits: [1], message: expect.stringMatching(/does not verify: the client share is wrong/) }),
    );
    expect(p.server.consumed).toBe(true);
  });

  test('malformed and non-canonical shares', () => {
    const cases: [string, string][] = [
      ['AB'.repeat(32), 'INVALID_ENCODING'],
      ['ab'.repeat(31), 'INVALID_ENCODING'],
      [(n + 1n).toString(16).padStart(64, '0'), 'INVALID_SCALAR'],
    ];
    for (const [bad, code] of cases) expect(() => signCombine(fresh().server, h, bad, publicKey)).toThrow(expect.objectContaining({ code, culprits: [1] }));
  });

  test('the signature must verify under the key the caller names', () => {
    const p = fresh();
    const other = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true);
    expect(() => signCombine(p.server, h, signShareClient(p.client, h).signature_share, other)).toThrow(expect.objectContaining({ code: 'INVALID_SIGNATURE_SHARE' }));
  });

  test('the client as combiner: its own share echoed back is not the server share (culprit: server)', () => {
    const p = fresh();
    expect(() => signCombine(p.client, h, signShareClient(json(p.client), h))).toThrow(expect.objectContaining({ culprits: [2] }));
  });
});
