import { ed25519Wire, type KeyPackage, type PublicKeyPackage } from '@svc/crypto/ed25519';
import { fromHex } from '@svc/crypto/hex';
import { SvcError } from '../errors.js';
import type { Curve } from '@svc/contract';

/*
 * What the device keeps per wallet (serialised as JSON into the app's ShareStorage): the
 * client's half of the key and the digest of the user seed part, so a heal can check the
 * shares it gathers without asking the server for its seed part.
 */

export interface Ed25519ClientShare {
  v: 1;
  curve: 'ed25519';
  wallet_id: string;
  public_key: string;
  key_package: unknown;
  public_key_package: unknown;
  user_part_sha256?: string;
}

export interface Secp256k1ClientShare {
  v: 1;
  curve: 'secp256k1';
  wallet_id: string;
  public_key: string;
  /** f(1), the client's Feldman share of the private key. */
  secret_share: string;
  commitments: string[];
  user_part_sha256?: string;
}

export type ClientShare = Ed25519ClientShare | Secp256k1ClientShare;

export function serialiseShare(share: ClientShare): string {
  return JSON.stringify(share);
}

/** Parses what storage returned; anything else is treated as corrupted storage. */
export function parseShare(value: string, curve: Curve): ClientShare {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new SvcError('NO_LOCAL_SHARE', `the stored ${curve} share is not readable: recover the wallet`);
  }
  const share = parsed as Partial<ClientShare> | null;
  if (!share || share.v !== 1 || share.curve !== curve || typeof share.wallet_id !== 'string' || typeof share.public_key !== 'string') {
    throw new SvcError('NO_LOCAL_SHARE', `the stored ${curve} share is not readable: recover the wallet`);
  }
  return share as ClientShare;
}

export function ed25519Packages(share: Ed25519ClientShare): { keyPackage: KeyPackage; publicKeyPackage: PublicKeyPackage } {
  return {
    keyPackage: ed25519Wire.decodeKeyPackage(share.key_package),
    publicKeyPackage: ed25519Wire.decodePublicKeyPackage(share.public_key_package),
  };
}

export function publicKeyBytes(share: ClientShare): Uint8Array {
  return fromHex(share.public_key, 'public_key');
}
