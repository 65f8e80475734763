// Shared helpers of the Ed25519 suite tests: point encodings with known properties, two parties
// as in two processes, and an independent verifier (OpenSSL through node:crypto).
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { createEd25519Suite, createFrostWireCodec, CryptoError, keygenSeedEd25519 } from '../src/index.js';

// Encodings with known properties (curve25519 facts, not produced by our code); each is
// re-checked with noble's own point API in ed25519-point-cache.test.ts.
export const IDENTITY = '0100000000000000000000000000000000000000000000000000000000000000';
export const ORDER_2 = 'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'; // y = -1
export const ORDER_4 = '0000000000000000000000000000000000000000000000000000000000000000'; // y = 0
export const ORDER_8 = '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05';
export const NON_CANONICAL_Y = 'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'; // y = p + 1
export const IDENTITY_NEG_ZERO = '0100000000000000000000000000000000000000000000000000000000000080'; // x = 0 with sign bit 1

export const keys = keygenSeedEd25519();
export const P = (hex: string) => ed25519.Point.fromHex(hex);
export const json = <T>(v: T): unknown => JSON.parse(JSON.stringify(v));

/** The CryptoError code `fn` throws, 'none', or the message of anything else it throws. */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return e instanceof CryptoError ? e.code : `plain Error: ${(e as Error).message}`;
  }
  return 'none';
}

export function opensslVerify(publicKey: Uint8Array, m: Uint8Array, sig: Uint8Array): boolean {
  const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]);
  return nodeVerify(null, m, createPublicKey({ key: der, format: 'der', type: 'spki' }), sig);
}

/** One party as in its own process: a suite with its own cache, its wire codec, its key. */
export function party(id: 1 | 2) {
  const suite = createEd25519Suite();
  const wire = createFrostWireCodec(suite, 32, 32);
  const keyPackage = wire.decodeKeyPackage(json(wire.encodeKeyPackage(id === 1 ? keys.keygen1 : keys.keygen2)));
  return { suite, wire, keyPackage };
}
