import { secp256k1 } from '@noble/curves/secp256k1.js';
import { verifyMessage } from 'viem';
import { EthereumWallet } from '../src/ethereum.js';
import { PresignaturePool, Secp256k1ThresholdSigner, SvcError } from '../src/index.js';

/*
 * The pool and the secp256k1 seam, with a stand-in producer: each "presignature" is a
 * numbered token, and the sign step signs with a plain key, recording which token it used.
 * What is tested is the bookkeeping (background fill, single use, refill after use, errors),
 * which stays the same when the real two-party producer is plugged in.
 */
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('PresignaturePool', () => {
  it('fills in the background to its target and hands each presignature out once, also under concurrency', async () => {
    let next = 0;
    const asked: number[] = [];
    const pool = new PresignaturePool<number>(async (count) => {
      asked.push(count);
      await tick();
      return Array.from({ length: count }, () => next++);
    }, { target: 3 });
    pool.replenish();
    await pool.fill();
    expect(pool.size).toBe(3);
    const taken = await Promise.all(Array.from({ length: 10 }, () => pool.take()));
    expect(new Set(taken).size).toBe(10);
    await pool.fill();
    expect(pool.size).toBeGreaterThan(0);
    // One fill at a time: never more asked than the target per call.
    expect(Math.max(...asked)).toBeLessThanOrEqual(3);
  });

  it('a failing producer: background errors are reported, take rejects with the error', async () => {
    const errors: unknown[] = [];
    const pool = new PresignaturePool<number>(() => Promise.reject(new SvcError('UPSTREAM_UNAVAILABLE', 'down', 503)), { onError: (e) => errors.push(e) });
    pool.replenish();
    await tick();
    expect(errors).toHaveLength(1);
    await expect(pool.take()).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });
});

describe('Secp256k1ThresholdSigner', () => {
  const secret = secp256k1.utils.randomSecretKey();
  const publicKey = secp256k1.getPublicKey(secret, true);

  it('takes one presignature per signature and refills after each; the chain layer verifies the result', async () => {
    let next = 0;
    const pool = new PresignaturePool<number>(async (count) => Array.from({ length: count }, () => next++), { target: 2 });
    const used: number[] = [];
    const signer = new Secp256k1ThresholdSigner(publicKey, pool, {
      async sign(presignature, hash) {
        used.push(presignature);
        const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, secret, { prehash: false, format: 'recovered' }), 'recovered');
        return { r: secp256k1.Point.Fn.toBytes(sig.r), s: secp256k1.Point.Fn.toBytes(sig.s), recovery: sig.recovery as 0 | 1 };
      },
    });
    const eth = new EthereumWallet(signer);
    for (const text of ['one', 'two', 'three']) {
      const signature = await eth.personal_sign(text);
      expect(await verifyMessage({ address: eth.address, message: text, signature })).toBe(true);
    }
    expect(new Set(used).size).toBe(3);
  });

  it('a presignature the server no longer holds: the pool is dropped and the signature made once with a fresh one', async () => {
    let next = 0;
    const pool = new PresignaturePool<number>(async (count) => Array.from({ length: count }, () => next++), { target: 3 });
    await pool.fill();
    let stale = (p: number) => p <= 2; // another device discarded these on the server
    const used: number[] = [];
    const signer = new Secp256k1ThresholdSigner(publicKey, pool, {
      async sign(presignature, hash) {
        used.push(presignature);
        if (stale(presignature)) throw new SvcError('PRESIGNATURE_NOT_AVAILABLE', 'Presignature not available', 409);
        const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, secret, { prehash: false, format: 'recovered' }), 'recovered');
        return { r: secp256k1.Point.Fn.toBytes(sig.r), s: secp256k1.Point.Fn.toBytes(sig.s), recovery: sig.recovery as 0 | 1 };
      },
    });
    const eth = new EthereumWallet(signer);
    const signature = await eth.personal_sign('after a reset');
    expect(await verifyMessage({ address: eth.address, message: 'after a reset', signature })).toBe(true);
    // 0 refused, 1 and 2 dropped unused, a fresh one signed.
    expect(used).toHaveLength(2);
    expect(used[0]).toBe(0);
    expect(used[1]).toBeGreaterThanOrEqual(3);
    // Refused twice in a row: the error reaches the app, no third attempt.
    stale = () => true;
    const before = used.length;
    await expect(eth.personal_sign('x')).rejects.toMatchObject({ code: 'PRESIGNATURE_NOT_AVAILABLE' });
    expect(used.length - before).toBe(2);
  });

  it('a producer that yields nothing: ECDSA_UNAVAILABLE, nothing signed', async () => {
    const signer = new Secp256k1ThresholdSigner(publicKey, new PresignaturePool<number>(async () => []), {
      sign: () => Promise.reject(new Error('must not be called')),
    });
    await expect(new EthereumWallet(signer).personal_sign('x')).rejects.toMatchObject({ code: 'ECDSA_UNAVAILABLE' });
  });
});
