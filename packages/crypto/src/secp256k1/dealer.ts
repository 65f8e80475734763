import { secp256k1_FROST } from '@noble/curves/secp256k1.js';
import { assertBytes, assertInteger, assertObject } from '../assert-input.js';
import { dealerRng } from '../dealer-rng.js';
import { CryptoError } from '../errors.js';

/** One party's Shamir share f(identifier) of the secp256k1 key. Secret. */
export interface Secp256k1Share {
  identifier: 1 | 2;
  /** 32-byte big-endian scalar. */
  secretShare: Uint8Array;
}

/** Output of {@link dealSecp256k1}. */
export interface Secp256k1Deal {
  /** 33-byte compressed secret·G. */
  publicKey: Uint8Array;
  /** Feldman commitments [secret·G, a1·G], 33-byte compressed each. */
  commitments: Uint8Array[];
  /** f(1) for the client, f(2) for the server. */
  shares: [Secp256k1Share & { identifier: 1 }, Secp256k1Share & { identifier: 2 }];
}

const { Fn } = secp256k1_FROST.utils;
const idHex = (id: number) => secp256k1_FROST.Identifier.fromNumber(id);

/**
 * Client-side 2-of-2 dealing of an existing secp256k1 private key: f(x) = secret + a1·x over the
 * group order with a1 derived from the secret (dealer-rng.ts: the same secret always gives the
 * same shares, so a recovered key rebuilds them), shares at x = 1 (client) and x = 2 (server). The dealing and the
 * commitments come from noble's RFC 9591 trusted dealer, which is exactly Feldman VSS.
 */
export function dealSecp256k1(secret: Uint8Array): Secp256k1Deal {
  assertBytes(secret, 'secret', 32);
  let scalar: bigint;
  try {
    scalar = Fn.fromBytes(secret);
  } catch {
    throw new CryptoError('INVALID_SCALAR', 'secret must be < the secp256k1 group order');
  }
  if (scalar === 0n) throw new CryptoError('INVALID_SCALAR', 'secret must not be zero');
  const dealt = secp256k1_FROST.trustedDealer({ min: 2, max: 2 }, [idHex(1), idHex(2)], secret as Uint8Array<ArrayBuffer>, dealerRng(secret, 'secp256k1'));
  const share = (id: 1 | 2): Uint8Array => {
    const s = dealt.secretShares[idHex(id)]?.signingShare;
    if (!s) throw new CryptoError('INVALID_INPUT', `dealer returned no share for ${id}`);
    return s;
  };
  const commitments = dealt.public.commitments.map((c) => Uint8Array.from(c));
  const publicKey = commitments[0];
  if (!publicKey || commitments.length !== 2) throw new CryptoError('INVALID_INPUT', 'dealer returned wrong commitments');
  return {
    publicKey,
    commitments,
    shares: [
      { identifier: 1, secretShare: share(1) },
      { identifier: 2, secretShare: share(2) },
    ],
  };
}

/**
 * Feldman check: share·G == C0 + identifier·C1. Returns false when the share does not match the
 * commitments; throws CryptoError for malformed arguments (wrong lengths, invalid points,
 * scalar >= order).
 */
export function verifySecp256k1Share(share: Secp256k1Share, commitments: readonly Uint8Array[]): boolean {
  assertObject(share, 'share');
  assertInteger(share.identifier, 'share.identifier', 1, 2);
  assertBytes(share.secretShare, 'share.secretShare', 32);
  if (!Array.isArray(commitments) || commitments.length !== 2) {
    throw new CryptoError('INVALID_INPUT', 'commitments must be an array of 2 compressed points');
  }
  commitments.forEach((c, i) => assertBytes(c, `commitments[${i}]`, 33));
  try {
    Fn.fromBytes(share.secretShare);
  } catch {
    throw new CryptoError('INVALID_SCALAR', 'share.secretShare must be < the secp256k1 group order', [share.identifier]);
  }
  const pub = { signers: { min: 2, max: 2 }, commitments: commitments as Uint8Array<ArrayBuffer>[], verifyingShares: {} };
  try {
    secp256k1_FROST.validateSecret({ identifier: idHex(share.identifier), signingShare: share.secretShare as Uint8Array<ArrayBuffer> }, pub);
    return true;
  } catch (e) {
    if ((e as Error).message === 'invalid secret share') return false;
    throw new CryptoError('INVALID_POINT', `commitments are not valid secp256k1 points: ${(e as Error).message}`);
  }
}
