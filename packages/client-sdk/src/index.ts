/**
 * `@svc/client-sdk`: the core wallet (sign-in, keygen, recovery, heal, export, the threshold
 * signers). It imports no chain library: the chain methods are the entry points
 * `@svc/client-sdk/ethereum`, `/cosmos`, `/solana` and `/chains` (all three); the ECDSA
 * protocol's steps and `signDigest`, for an app that wires its own signers or chains, are
 * `@svc/client-sdk/ecdsa`. The wallet loads the ECDSA protocol and the once-per-device flows
 * (keygen, recovery, heal, export) on first use, as their own chunks in an app's bundle.
 */
export { SvcError, isSvcError, CLIENT_ERROR_CODES, type ClientErrorCode, type SvcErrorCode } from './errors.js';
export { call, type CallBody, type PostRoute, type Poster } from './http/call.js';
export { HttpClient, decodeEnvelope, type HttpClientOptions, type RequestOptions, type FetchLike } from './http/http-client.js';
export { MemoryShareStorage, shareStorageKey, type ShareStorage, type ShareCurve } from './storage/share-storage.js';
export { WebStorageShareStorage, type WebStorageLike } from './storage/web-storage.js';
export { IndexedDbShareStorage, type IndexedDbShareStorageOptions } from './storage/indexed-db-storage.js';
export { WrappedShareStorage, indexedDbWrappingKey, type WrappingKeySource } from './storage/share-wrapping.js';
export type { Signers, SignersSource, Ed25519Signer, Secp256k1Signer, Secp256k1RawSignature } from './signers.js';
export { signEd25519 } from './chains/ed25519-signature.js';
export { SvcWallet, type SvcWalletOptions, type SignInOutcome, type SignInStatus, type ExportedKeys } from './wallet/svc-wallet.js';
export type { FlowOptions, SignOutOptions, SignOutResult } from './wallet/svc-wallet.js';
export { SESSION_STORAGE_KEY } from './wallet/session.js';
export { EcdsaPools, type EcdsaWiring, type EcdsaPoolsOptions } from './wallet/ecdsa-pools.js';
export type { PooledPresignature } from './threshold/ecdsa-tss.js';
export { AuthedClient, type AuthedClientOptions } from './wallet/authed-client.js';
export type { Curve, WalletInfo, SignInResult, UserCheckResult, KeyshareNodeStatus, WalletStatus, ServerSeedPart } from '@svc/contract';
export { Ed25519ThresholdSigner, type AuthedPoster } from './threshold/ed25519-threshold-signer.js';
export { Secp256k1ThresholdSigner, type EcdsaSignStep } from './threshold/secp256k1-threshold-signer.js';
export { PresignaturePool, type PresignatureSource, type PresignaturePoolOptions } from './threshold/presignature-pool.js';
