/**
 * `@svc/client-sdk/ecdsa`: the client half of two-party ECDSA against tss-api, step by step
 * (triples, presign, the one-round-trip signature), for an app that wires its own
 * `Secp256k1ThresholdSigner` or presignature store (SvcWalletOptions.ecdsa), and `signDigest`
 * (a verified, low-s signature with its recovery id from any Secp256k1Signer) for a chain the
 * SDK has no entry point for. SvcWallet needs none of it: it loads the protocol on first use.
 */
export { generateTriples, presign, ecdsaPresignatureProducer, tssEcdsaSignStep, type PooledPresignature, type EcdsaProducerOptions } from './threshold/ecdsa-tss.js';
export { signDigest, type Secp256k1Signature } from './chains/secp256k1-signature.js';
