import { createFROST } from '@noble/curves/abstract/frost.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { createTwoPartyFrost } from '../frost/two-party.js';
import { createCheckedPointClass, SubgroupCheckCache } from './checked-point.js';

/** RFC 9591 ciphersuite identifier carried in every Ed25519 wire object. */
export const ED25519_CIPHERSUITE = 'FROST-ED25519-SHA512-v1';

/**
 * noble's RFC 9591 FROST(Ed25519, SHA-512) built with its public `createFROST` and the
 * ciphersuite's parameters (the same as noble's `ed25519_FROST`: SHA-512, undecorated H2 for
 * RFC 8032 compatibility), with two differences in how points are checked, not in the protocol:
 * - no `validatePoint` hook: noble's `ed25519_FROST` passes one that repeats `assertValidity` and
 *   the subgroup check right after createFROST's own validation ran them (RFC 9591 §3.1
 *   DeserializeElement: on-curve, not identity, prime order) — twice the cost for nothing;
 * - the point class remembers which exact encodings passed the subgroup check (checked-point.ts).
 * The RFC 9591 E.1 vectors are checked against this instance (test/rfc9591-frost.test.ts).
 *
 * Each call makes an independent suite with its own cache; the package uses one per process
 * (`frostEd25519`). The benches make one per party to model two machines.
 */
export function createEd25519Suite(cacheLimit?: number) {
  const checked = new SubgroupCheckCache(cacheLimit);
  const { Point, commitRemembering, withOwnCommitments, acceptWitness, precomputeCached, counts } = createCheckedPointClass(checked);
  const frost = createFROST({ name: ED25519_CIPHERSUITE, Point, hash: sha512, H2: '' });
  return createTwoPartyFrost({ name: ED25519_CIPHERSUITE, frost, Point, pointBytes: 32, commitRemembering, withOwnCommitments, acceptWitness, precomputeCached, checked, counts });
}

/** The 2-of-2 protocol of this process, bound to FROST(Ed25519, SHA-512). */
export const frostEd25519 = createEd25519Suite();
