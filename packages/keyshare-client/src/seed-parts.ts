import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { equalBytes } from '@noble/curves/utils.js';
import { fromHex, sssCombine, sssSplit, type SssVerify } from '@svc/crypto';
import type { Curve } from './protocol.js';

/**
 * The wallet seed is split 2-of-2 (spec §1): the server part is stored by the main server, the
 * user part is what this package spreads t-of-n over the key share nodes. Neither part alone
 * says anything about the seed. Parts use the @svc/crypto Shamir format (y bytes || x).
 */

/** x-coordinates of the two seed parts. Fixed, so either side can tell the parts apart. */
export const SERVER_PART_X = 1;
export const USER_PART_X = 2;

export interface SeedParts {
  serverPart: Uint8Array;
  userPart: Uint8Array;
}

export async function splitWalletSeed(seed: Uint8Array): Promise<SeedParts> {
  const [serverPart, userPart] = await sssSplit(seed, 2, 2, [SERVER_PART_X, USER_PART_X]);
  return { serverPart: serverPart!, userPart: userPart! };
}

/**
 * The wallet public key of a seed: RFC 8032 for ed25519 (the seed is the Ed25519 secret key);
 * the compressed SEC1 point for secp256k1 (the 32-byte seed is the private key).
 */
export function walletPublicKeyOfSeed(curve: Curve, seed: Uint8Array): Uint8Array {
  return curve === 'ed25519' ? ed25519.getPublicKey(seed) : secp256k1.getPublicKey(seed, true);
}

/** The seed from both parts, checked against the wallet public key. */
export async function combineWalletSeed(curve: Curve, publicKey: string, parts: SeedParts): Promise<Uint8Array> {
  return sssCombine([parts.serverPart, parts.userPart], { threshold: 2, verify: seedMatches(curve, publicKey) });
}

function seedMatches(curve: Curve, publicKey: string): SssVerify {
  const expected = fromHex(publicKey, 'publicKey');
  return (seed) => {
    try {
      return equalBytes(walletPublicKeyOfSeed(curve, seed), expected);
    } catch {
      // A wrong secp256k1 seed can be out of range: that is simply "not the expected key".
      return false;
    }
  };
}

/**
 * The expected-key check for recovering the user part: a candidate user part is right when,
 * with the server part, it gives the seed of the wallet public key. Passed to sssCombine it
 * also lets combine name the nodes whose shares are corrupted.
 */
export function expectWalletKey(curve: Curve, publicKey: string, serverPart: Uint8Array): SssVerify {
  const matches = seedMatches(curve, publicKey);
  return async (userPart) => {
    if (userPart.length !== serverPart.length) return false;
    let seed: Uint8Array;
    try {
      seed = await sssCombine([serverPart, userPart], { threshold: 2 });
    } catch {
      return false;
    }
    try {
      return await matches(seed);
    } finally {
      seed.fill(0);
    }
  };
}
