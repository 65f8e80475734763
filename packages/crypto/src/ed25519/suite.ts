import { ed25519, ed25519_FROST } from '@noble/curves/ed25519.js';
import { createTwoPartyFrost } from '../frost/two-party.js';

/** RFC 9591 ciphersuite identifier carried in every Ed25519 wire object. */
export const ED25519_CIPHERSUITE = 'FROST-ED25519-SHA512-v1';

/** The 2-of-2 protocol bound to noble's FROST(Ed25519, SHA-512). */
export const frostEd25519 = createTwoPartyFrost({
  name: ED25519_CIPHERSUITE,
  frost: ed25519_FROST,
  Point: ed25519.Point,
  pointBytes: 32,
});
