// End-to-end 2-of-2 threshold ECDSA (cait-sith family): 100 signatures from one batch of 200
// triples, each verified by OpenSSL (node:crypto) and by noble, with public-key recovery.
import { createHash, createPublicKey, verify as nodeVerify, randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/curves/utils.js';
import { CryptoError } from '../src/index.js';
import { type Presignature, signCombine, signShareServer } from '../src/ecdsa/index.js';
import { json, keyShares, runPresign, runTriples } from './ecdsa-helpers.js';

const SIGNATURES = 100;
const b64url = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex').toString('base64url');

describe('two-party ECDSA: triples -> presign -> sign', () => {
  const keys = keyShares();
  const point = secp256k1.Point.fromBytes(keys.publicKey).toAffine();
  const nodeKey = createPublicKey({ key: { kty: 'EC', crv: 'secp256k1', x: b64url(point.x), y: b64url(point.y) }, format: 'jwk' });
  let presigs: { client: Presignature[]; server: Presignature[] };

  beforeAll(() => {
    const triples = runTriples(2 * SIGNATURES, undefined, 2 * SIGNATURES);
    presigs = runPresign(keys, triples);
  });

  test(`${SIGNATURES} signatures verify with OpenSSL and noble, recover the key, and have low s`, () => {
    expect(presigs.client).toHaveLength(SIGNATURES);
    const n = secp256k1.Point.Fn.ORDER;
    for (let i = 0; i < SIGNATURES; i++) {
      const message = randomBytes(1 + (i % 100));
      const h = createHash('sha256').update(message).digest();
      // The server's presignature goes through JSON as it would through the database.
      const serverPresig = json(presigs.server[i]!);
      const share = signShareServer(serverPresig, h);
      const sig = signCombine(presigs.client[i]!, h, json(share));

      expect(nodeVerify('sha256', message, { key: nodeKey, dsaEncoding: 'ieee-p1363' }, sig.signature)).toBe(true);
      expect(secp256k1.verify(sig.signature, h, keys.publicKey, { prehash: false })).toBe(true);
      expect(sig.s <= n / 2n).toBe(true);
      const recovered = secp256k1.Signature.fromBytes(sig.signature, 'compact').addRecoveryBit(sig.recovery).recoverPublicKey(h);
      expect(bytesToHex(recovered.toBytes(true))).toBe(bytesToHex(keys.publicKey));
      expect(serverPresig.consumed).toBe(true);
      expect(presigs.client[i]!.consumed).toBe(true);
    }
  });

  test('a presignature is refused once used (both parties)', () => {
    const h = new Uint8Array(32).fill(9);
    const fresh = runPresign(keyShares(), runTriples(2));
    const share = signShareServer(fresh.server[0]!, h);
    expect(() => signShareServer(fresh.server[0]!, h)).toThrow(expect.objectContaining({ code: 'STATE_CONSUMED' }));
    signCombine(fresh.client[0]!, h, share);
    expect(() => signCombine(fresh.client[0]!, h, share)).toThrow(expect.objectContaining({ code: 'STATE_CONSUMED' }));
  });
});

describe('sign: checks at the coordinator', () => {
  const keys = keyShares();
  const fresh = () => runPresign(keys, runTriples(2));
  const h = createHash('sha256').update('pay 1 coin').digest();

  test('a wrong server share is caught by verifying the signature (culprit: server)', () => {
    const p = fresh();
    const share = signShareServer(p.server[0]!, h);
    share.signature_share = (BigInt('0x' + share.signature_share) + 1n).toString(16).padStart(64, '0');
    expect(() => signCombine(p.client[0]!, h, share)).toThrow(expect.objectContaining({ code: 'INVALID_SIGNATURE_SHARE', culprits: [2] }));
  });

  test('a share for another presignature is refused (R differs)', () => {
    const p = fresh();
    const q = fresh();
    const share = signShareServer(q.server[0]!, h);
    expect(() => signCombine(p.client[0]!, h, share)).toThrow(expect.objectContaining({ code: 'CHECK_FAILED', culprits: [2] }));
  });

  test('a share for another message fails verification', () => {
    const p = fresh();
    const share = signShareServer(p.server[0]!, createHash('sha256').update('pay 1000 coins').digest());
    expect(() => signCombine(p.client[0]!, h, share)).toThrow(CryptoError);
  });

  test('strict share decoding: unknown fields, non-canonical scalars, bad points', () => {
    const p = fresh();
    const share = signShareServer(p.server[0]!, h);
    const n = secp256k1.Point.Fn.ORDER;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...share, extra: 1 }, 'INVALID_ENCODING'],
      [{ ...share, signature_share: (n + 1n).toString(16).padStart(64, '0') }, 'INVALID_SCALAR'],
      [{ ...share, big_r: '02' + 'ff'.repeat(32) }, 'INVALID_POINT'],
      [{ ...share, v: 2 }, 'UNSUPPORTED_VERSION'],
    ];
    for (const [bad, code] of cases) {
      expect(() => signCombine(json(p.client[0]!), h, bad)).toThrow(expect.objectContaining({ code, culprits: [2] }));
    }
  });

  test('message hash must be 32 bytes', () => {
    const p = fresh();
    expect(() => signShareServer(p.server[0]!, new Uint8Array(31))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
