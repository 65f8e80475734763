import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE } from '@noble/curves/utils.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { randomBytes } from '@noble/hashes/utils.js';
import { assertBytes } from '../assert-input.js';
import type { KeyPackage, PublicKeyPackage } from '../frost/types.js';
import { dealerRng } from '../dealer-rng.js';
import { frostEd25519 } from './suite.js';

/** Result of seed-based Ed25519 keygen on the client (the client is the dealer). */
export interface Ed25519Keygen {
  /** 32-byte seed: keep it for the backup split; never send it whole. */
  seed: Uint8Array;
  /** RFC 8032 public key of the seed = group verifying key. */
  publicKey: Uint8Array;
  /** Client key package (identifier 1), stays on the device. */
  keygen1: KeyPackage;
  /** Server key package (identifier 2), sent to the server which checks and stores it encrypted. */
  keygen2: KeyPackage;
  publicKeyPackage: PublicKeyPackage;
}

/**
 * RFC 8032 §5.1.5 secret scalar of a seed: clamp(SHA-512(seed)[0..32]) read little-endian, then
 * reduced mod L. The reduction is needed because the clamped value is ~2^254 > L and noble only
 * accepts canonical scalars; it does not change the public key (L·G = identity).
 */
export function ed25519SeedScalar(seed: Uint8Array): Uint8Array {
  assertBytes(seed, 'seed', 32);
  const head = sha512(seed).slice(0, 32);
  head[0] = (head[0] ?? 0) & 248;
  head[31] = ((head[31] ?? 0) & 127) | 64;
  const { Fn } = ed25519.Point;
  const scalar = Fn.toBytes(Fn.create(bytesToNumberLE(head)));
  head.fill(0);
  return scalar;
}

/**
 * Client-side dealer keygen: derives the Ed25519 scalar from `seed` (random when omitted) and
 * splits it 2-of-2 at identifiers 1 (client) and 2 (server) with noble's trusted dealer.
 * The group key equals the RFC 8032 public key of the seed, so the wallet address is the
 * ordinary Ed25519 address of that seed. The dealing is deterministic in the seed (see
 * dealer-rng.ts): the same seed always gives the same keygen_1 and keygen_2, which is what
 * recovery on a new device relies on.
 */
export function keygenSeedEd25519(seed: Uint8Array = randomBytes(32)): Ed25519Keygen {
  assertBytes(seed, 'seed', 32);
  const scalar = ed25519SeedScalar(seed);
  const { keyPackages, publicKeyPackage } = frostEd25519.deal(scalar, dealerRng(seed, 'ed25519'));
  scalar.fill(0);
  return {
    seed,
    publicKey: publicKeyPackage.verifyingKey,
    keygen1: keyPackages[1],
    keygen2: keyPackages[2],
    publicKeyPackage,
  };
}

/**
 * Server-side check before storing keygen_2: its signing share times G is its verifying share,
 * it names the same group key as the public key package, and the two verifying shares
 * interpolate to that key. Throws CryptoError('KEY_MISMATCH' | 'INVALID_POINT' | ...) otherwise.
 */
export function checkKeyPackageEd25519(keyPackage: KeyPackage, publicKeyPackage: PublicKeyPackage): void {
  frostEd25519.checkKeyPackage(keyPackage, publicKeyPackage);
}

/** Spec name of {@link keygenSeedEd25519}. */
export const cli_keygen_seed_ed25519 = keygenSeedEd25519;
/** Snake-case alias of {@link checkKeyPackageEd25519}. */
export const srv_check_key_package_ed25519 = checkKeyPackageEd25519;
