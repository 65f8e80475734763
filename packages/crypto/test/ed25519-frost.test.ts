import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/curves/utils.js';
import {
  aggregateEd25519,
  checkKeyPackageEd25519,
  cli_aggregate_ed25519,
  cli_keygen_seed_ed25519,
  cli_sign_round1_ed25519,
  cli_sign_round2_ed25519,
  cli_verify_ed25519,
  CryptoError,
  type Ed25519Keygen,
  keygenSeedEd25519,
  signRound1ClientEd25519,
  signRound1ServerEd25519,
  signRound2ClientEd25519,
  signRound2ServerEd25519,
  srv_sign_round1_ed25519,
  srv_sign_round2_ed25519,
  verifyEd25519,
} from '../src/index.js';

// RFC 8032 §7.1 TEST 1.
const RFC8032_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC8032_PK = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';

/** Independent verifier: OpenSSL through node:crypto, key from a raw key via DER SPKI. */
function opensslVerify(publicKey: Uint8Array, msg: Uint8Array, sig: Uint8Array): boolean {
  const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]);
  return nodeVerify(null, msg, createPublicKey({ key: der, format: 'der', type: 'spki' }), sig);
}

/** Runs both parties of one signature with the camelCase API. */
function sign2of2(k: Ed25519Keygen, msg: Uint8Array) {
  const client = signRound1ClientEd25519(k.keygen1);
  const server = signRound1ServerEd25519(k.keygen2);
  const { commitment0 } = server;
  const { commitment1 } = client;
  const signatureShare0 = signRound2ServerEd25519({ msg, keyPackage: k.keygen2, nonces: server.nonces, commitment0, commitment1 });
  const signatureShare1 = signRound2ClientEd25519({ msg, keyPackage: k.keygen1, nonces: client.nonces, commitment0, commitment1 });
  const signature = aggregateEd25519({ msg, publicKeyPackage: k.publicKeyPackage, commitment0, commitment1, signatureShare0, signatureShare1 });
  return { signature, commitment0, commitment1, signatureShare0, signatureShare1 };
}

describe('seed keygen (RFC 8032 compatible)', () => {
  const k = cli_keygen_seed_ed25519(hexToBytes(RFC8032_SEED));

  test('RFC 8032 test 1 seed gives the published public key', () => {
    expect(bytesToHex(k.publicKey)).toBe(RFC8032_PK);
    expect(bytesToHex(k.publicKeyPackage.verifyingKey)).toBe(RFC8032_PK);
    expect(k.keygen1.identifier).toBe(1);
    expect(k.keygen2.identifier).toBe(2);
  });

  test('the dealt shares sign under that key (spec-named functions)', () => {
    const msg = new TextEncoder().encode('rfc 8032 key, threshold signature');
    const c = cli_sign_round1_ed25519(k.keygen1);
    const s = srv_sign_round1_ed25519(k.keygen2);
    const args = { msg, commitment0: s.commitment0, commitment1: c.commitment1 };
    const signatureShare0 = srv_sign_round2_ed25519({ ...args, keyPackage: k.keygen2, nonces: s.nonces });
    const signatureShare1 = cli_sign_round2_ed25519({ ...args, keyPackage: k.keygen1, nonces: c.nonces });
    const sig = cli_aggregate_ed25519({ ...args, publicKeyPackage: k.publicKeyPackage, signatureShare0, signatureShare1 });
    expect(sig).toHaveLength(64);
    expect(cli_verify_ed25519(sig, msg, hexToBytes(RFC8032_PK))).toBe(true);
    expect(opensslVerify(hexToBytes(RFC8032_PK), msg, sig)).toBe(true);
  });

  test('a random seed gives the public key noble derives for that seed', () => {
    const r = keygenSeedEd25519();
    expect(r.seed).toHaveLength(32);
    expect(bytesToHex(r.publicKey)).toBe(bytesToHex(ed25519.getPublicKey(r.seed)));
  });

  test('the server check accepts a matching keygen_2 and rejects mismatches', () => {
    expect(() => checkKeyPackageEd25519(k.keygen2, k.publicKeyPackage)).not.toThrow();
    expect(() => checkKeyPackageEd25519(k.keygen1, k.publicKeyPackage)).not.toThrow();
    const other = keygenSeedEd25519();
    expectCode(() => checkKeyPackageEd25519(other.keygen2, k.publicKeyPackage), 'KEY_MISMATCH');
    // Swapped verifying shares keep each point valid but break share·G.
    const swapped = { ...k.publicKeyPackage, verifyingShares: { 1: k.publicKeyPackage.verifyingShares[2], 2: k.publicKeyPackage.verifyingShares[1] } };
    expectCode(() => checkKeyPackageEd25519(k.keygen2, swapped), 'KEY_MISMATCH');
    // Consistent share but a group key that the verifying shares do not interpolate to.
    const wrongKey = { ...k.publicKeyPackage, verifyingKey: other.publicKey };
    expectCode(() => checkKeyPackageEd25519({ ...k.keygen2, verifyingKey: other.publicKey }, wrongKey), 'KEY_MISMATCH');
  });
});

describe('2-of-2 signatures verified by OpenSSL', () => {
  test('200 random signatures verify; flipped message or signature bits do not', () => {
    let keys = keygenSeedEd25519();
    for (let i = 0; i < 200; i++) {
      if (i % 25 === 0) keys = keygenSeedEd25519();
      const msg = crypto.getRandomValues(new Uint8Array(1 + (i % 97)));
      const { signature } = sign2of2(keys, msg);
      expect(opensslVerify(keys.publicKey, msg, signature)).toBe(true);
      expect(verifyEd25519(signature, msg, keys.publicKey)).toBe(true);
      // Sampled single-bit flips (different bits each round) keep this fast.
      const mbit = (i * 7919) % (msg.length * 8);
      const badMsg = msg.slice();
      badMsg[mbit >> 3]! ^= 1 << (mbit & 7);
      expect(opensslVerify(keys.publicKey, badMsg, signature)).toBe(false);
      for (const sbit of [(i * 131) % 512, (i * 257 + 3) % 512]) {
        const badSig = signature.slice();
        badSig[sbit >> 3]! ^= 1 << (sbit & 7);
        expect(opensslVerify(keys.publicKey, msg, badSig)).toBe(false);
      }
    }
  });
});

describe('misbehaviour', () => {
  const k = keygenSeedEd25519();
  const msg = new TextEncoder().encode('transfer 1 SOL');

  test('a tampered server share is INVALID_SIGNATURE_SHARE naming identifier 2', () => {
    const run = sign2of2(k, msg);
    const bad = run.signatureShare0.slice();
    bad[0]! ^= 1;
    const err = catchError(() =>
      aggregateEd25519({ msg, publicKeyPackage: k.publicKeyPackage, commitment0: run.commitment0, commitment1: run.commitment1, signatureShare0: bad, signatureShare1: run.signatureShare1 }),
    );
    expect(err.code).toBe('INVALID_SIGNATURE_SHARE');
    expect(err.culprits).toEqual([2]);
  });

  test('a share computed for another message names its sender', () => {
    const run = sign2of2(k, msg);
    const other = sign2of2(k, new TextEncoder().encode('transfer 100 SOL'));
    const err = catchError(() =>
      aggregateEd25519({ msg, publicKeyPackage: k.publicKeyPackage, commitment0: run.commitment0, commitment1: run.commitment1, signatureShare0: run.signatureShare0, signatureShare1: other.signatureShare1 }),
    );
    expect(err.code).toBe('INVALID_SIGNATURE_SHARE');
    expect(err.culprits).toEqual([1]);
  });

  test('nonces are consumed by round 2: a second share from them is refused', () => {
    const c = signRound1ClientEd25519(k.keygen1);
    const s = signRound1ServerEd25519(k.keygen2);
    const args = { msg, keyPackage: k.keygen2, nonces: s.nonces, commitment0: s.commitment0, commitment1: c.commitment1 };
    signRound2ServerEd25519(args);
    expectCode(() => signRound2ServerEd25519(args), 'STATE_CONSUMED');
  });

  test('round 2 rejects commitments that do not belong to its nonces', () => {
    const c = signRound1ClientEd25519(k.keygen1);
    const s = signRound1ServerEd25519(k.keygen2);
    const s2 = signRound1ServerEd25519(k.keygen2);
    expectCode(() => signRound2ServerEd25519({ msg, keyPackage: k.keygen2, nonces: s.nonces, commitment0: s2.commitment0, commitment1: c.commitment1 }), 'INVALID_COMMITMENT');
  });

  test('each party refuses the other party\u2019s key package and mislabelled commitments', () => {
    expectCode(() => signRound1ClientEd25519(k.keygen2), 'INVALID_INPUT');
    expectCode(() => signRound1ServerEd25519(k.keygen1), 'INVALID_INPUT');
    const c = signRound1ClientEd25519(k.keygen1);
    const s = signRound1ServerEd25519(k.keygen2);
    expectCode(() => signRound2ServerEd25519({ msg, keyPackage: k.keygen2, nonces: s.nonces, commitment0: c.commitment1, commitment1: s.commitment0 }), 'INVALID_COMMITMENT');
  });

  test('a small-order commitment point from the peer is INVALID_POINT naming it', () => {
    const c = signRound1ClientEd25519(k.keygen1);
    const s = signRound1ServerEd25519(k.keygen2);
    const order2 = hexToBytes('ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f');
    const err = catchError(() =>
      signRound2ClientEd25519({ msg, keyPackage: k.keygen1, nonces: c.nonces, commitment0: { ...s.commitment0, binding: order2 }, commitment1: c.commitment1 }),
    );
    expect(err.code).toBe('INVALID_POINT');
    expect(err.culprits).toEqual([2]);
  });
});

function catchError(fn: () => unknown): CryptoError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CryptoError) return e;
    throw e;
  }
  throw new Error('expected a CryptoError');
}

function expectCode(fn: () => unknown, code: string): void {
  expect(catchError(fn).code).toBe(code);
}
