import { assertBytes, assertInteger, assertObject } from '../../assert-input.js';
import { CryptoError } from '../../errors.js';
import { Fn, Point, type Pt } from './group.js';

/*
 * The key share a party brings to presign, as produced by dealSecp256k1 (identifier 1 for the
 * client, 2 for the server) together with the 33-byte compressed public key.
 */

export interface EcdsaKeyShare {
  identifier: 1 | 2;
  secretShare: Uint8Array;
  publicKey: Uint8Array;
}

export function readKeyShare(k: unknown, expectedId: 1 | 2): { x: bigint; X: Pt; publicKey: Uint8Array } {
  assertObject(k, 'keyShare');
  assertInteger(k.identifier, 'keyShare.identifier', 1, 2);
  if (k.identifier !== expectedId) throw new CryptoError('INVALID_INPUT', `keyShare.identifier must be ${expectedId} for this party`);
  assertBytes(k.secretShare, 'keyShare.secretShare', 32);
  assertBytes(k.publicKey, 'keyShare.publicKey', 33);
  let x: bigint;
  try {
    x = Fn.fromBytes(k.secretShare);
  } catch {
    throw new CryptoError('INVALID_SCALAR', 'keyShare.secretShare must be < n');
  }
  if (x === 0n) throw new CryptoError('INVALID_SCALAR', 'keyShare.secretShare must not be zero');
  let X: Pt;
  try {
    X = Point.fromBytes(k.publicKey);
  } catch {
    throw new CryptoError('INVALID_POINT', 'keyShare.publicKey is not a valid compressed secp256k1 point');
  }
  return { x, X, publicKey: Uint8Array.from(k.publicKey) };
}
