import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { equalBytes } from '@noble/curves/utils.js';

/*
 * Hash commitment Com = SHA-256(domain ‖ r ‖ data) with a fresh 32-byte randomizer r: hiding
 * because r is secret until the opening, binding because SHA-256 is collision resistant. The
 * domain string keeps these commitments apart from every other hash in the protocol.
 */

const DOMAIN = utf8ToBytes('svc/ecdsa commitment v1');

export function commit(data: Uint8Array): { commitment: Uint8Array; randomizer: Uint8Array } {
  const randomizer = randomBytes(32);
  return { commitment: sha256(concatBytes(DOMAIN, randomizer, data)), randomizer };
}

export function checkCommitment(commitment: Uint8Array, data: Uint8Array, randomizer: Uint8Array): boolean {
  return equalBytes(commitment, sha256(concatBytes(DOMAIN, randomizer, data)));
}
