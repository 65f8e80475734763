export { CryptoError, type CryptoErrorCode } from './errors.js';
export * from './frost/types.js';
export { createTwoPartyFrost, type TwoPartySuite } from './frost/two-party.js';
export { ED25519_CIPHERSUITE, frostEd25519 } from './ed25519/suite.js';
export * from './ed25519/keygen.js';
export * from './ed25519/sign.js';
