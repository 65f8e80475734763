import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { CryptoError } from '../errors.js';

/**
 * x-coordinate of a key share node's share, derived from the node's name so that every party
 * computes the same value without a registry: 1 + (SHA-256(utf8(name))[0] mod 255), in 1..255.
 *
 * Only 255 values exist, so two names can collide (about 1.2% for 3 nodes, 10% for 8). Avoiding
 * collisions is the caller's job: when registering a node, compare its x with the existing
 * nodes' and pick another name on a clash. {@link sssSplit} and {@link sssExtendShares} reject
 * duplicate x-coordinates, so a collision cannot silently overwrite a share.
 */
export function sssNodeXCoordinate(name: string): number {
  if (typeof name !== 'string' || name.length === 0) {
    throw new CryptoError('INVALID_INPUT', 'node name must be a non-empty string');
  }
  return 1 + ((sha256(utf8ToBytes(name))[0] ?? 0) % 255);
}
