/**
 * `@svc/crypto/ed25519`: two-party FROST(Ed25519, SHA-512) with its keygen and wire codec, and
 * nothing of ECDSA, secp256k1 or Shamir: what the SDK's core bundle loads. The root entry
 * (`@svc/crypto`) re-exports it with the rest; `@svc/crypto/ecdsa` is the ECDSA protocol.
 */
export * from '../frost/types.js';
export { createTwoPartyFrost, type TwoPartySuite } from '../frost/two-party.js';
export { ED25519_CIPHERSUITE, createEd25519Suite, frostEd25519 } from './suite.js';
export { SubgroupCheckCache } from './checked-point.js';
export * from './keygen.js';
export * from './sign.js';
export * from '../wire/frost-codec.js';
export * from '../wire/frost-ed25519.js';
