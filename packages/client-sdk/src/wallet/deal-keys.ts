import { secp256k1 } from '@noble/curves/secp256k1.js';
import { dealSecp256k1, ed25519Wire, keygenSeedEd25519, toHex, type Ed25519Keygen } from '@svc/crypto';
import type { Curve, KeygenRequest } from '@svc/contract';
import type { ClientShare } from './client-shares.js';

/*
 * Dealing a wallet key from its seed, on the client: keygen deals from a fresh seed, recovery
 * re-deals from the recombined one. Only the once-per-device flows use it (once-flows.ts).
 */

/** The dealt key of one curve, from its 32-byte seed (deterministic: recovery re-derives it). */
export interface DealtKey {
  curve: Curve;
  seed: Uint8Array;
  publicKey: Uint8Array;
  /** This key's part of the /tss/v1/keygen body: the server's share, with the server's seed part. */
  keygenPart(seedPart: string): KeygenRequest;
  clientShare(walletId: string): ClientShare;
}

export function dealEd25519(seed?: Uint8Array): DealtKey {
  const k: Ed25519Keygen = seed ? keygenSeedEd25519(seed) : keygenSeedEd25519();
  return {
    curve: 'ed25519',
    seed: k.seed,
    publicKey: k.publicKey,
    keygenPart: (seedPart) => ({
      // Spread: the contract types wire objects as plain records, the codec as named interfaces.
      ed25519: {
        key_package: { ...ed25519Wire.encodeKeyPackage(k.keygen2) },
        public_key_package: { ...ed25519Wire.encodePublicKeyPackage(k.publicKeyPackage) },
        seed_part: seedPart,
      },
    }),
    clientShare: (walletId) => ({
      v: 1,
      curve: 'ed25519',
      wallet_id: walletId,
      public_key: toHex(k.publicKey),
      key_package: ed25519Wire.encodeKeyPackage(k.keygen1),
      public_key_package: ed25519Wire.encodePublicKeyPackage(k.publicKeyPackage),
    }),
  };
}

/** secp256k1: the seed is the private key itself (docs/architecture.md, Keygen). */
export function dealSecp256k1Key(seed?: Uint8Array): DealtKey {
  const secret = seed ?? secp256k1.utils.randomSecretKey();
  const deal = dealSecp256k1(secret);
  const [client, server] = deal.shares;
  return {
    curve: 'secp256k1',
    seed: secret,
    publicKey: deal.publicKey,
    keygenPart: (seedPart) => ({
      secp256k1: {
        secret_share: toHex(server.secretShare),
        public_key: toHex(deal.publicKey),
        commitments: deal.commitments.map(toHex),
        seed_part: seedPart,
      },
    }),
    clientShare: (walletId) => ({
      v: 1,
      curve: 'secp256k1',
      wallet_id: walletId,
      public_key: toHex(deal.publicKey),
      secret_share: toHex(client.secretShare),
      commitments: deal.commitments.map(toHex),
    }),
  };
}

export function dealFromSeed(curve: Curve, seed: Uint8Array): DealtKey {
  return curve === 'ed25519' ? dealEd25519(seed) : dealSecp256k1Key(seed);
}
