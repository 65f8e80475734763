import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { field, type Field } from '../fields.js';
import type { Curve } from '../tss-api/types.js';

export const CURVES: readonly Curve[] = ['secp256k1', 'ed25519'];

/** Public key length in bytes per curve (compressed SEC1 for secp256k1, RFC 8032 for ed25519). */
export const PUBLIC_KEY_BYTES: Record<Curve, number> = { secp256k1: 33, ed25519: 32 };

/** Largest share accepted: a seed part share is 34 bytes; this leaves room for other secrets. */
export const MAX_SHARE_BYTES = 512;

/** A wallet public key that is a valid point of its curve (not just the right length). */
export function isValidPublicKey(curve: unknown, value: unknown): boolean {
  if (typeof value !== 'string' || !CURVES.includes(curve as Curve)) return false;
  const bytes = PUBLIC_KEY_BYTES[curve as Curve];
  if (!new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(value)) return false;
  try {
    if (curve === 'ed25519') ed25519.Point.fromHex(value).assertValidity();
    else secp256k1.Point.fromHex(value).assertValidity();
    return true;
  } catch {
    return false;
  }
}

/** The wallet fields every key share route takes. */
export const walletFields = {
  curve_type: field.oneOf(CURVES),
  public_key: field.string({ typeMessage: 'Invalid public key' }).check<string>((value, body) => isValidPublicKey(body.curve_type, value), 'Invalid public key'),
};

const HEX64 = /^[0-9a-f]{64}$/;

/** 32 bytes in lowercase hex. */
export const hex64 = (): Field<string> => field.string({ pattern: HEX64, message: (p) => `${p} must be 32 bytes in lowercase hex`, description: '32 bytes, lowercase hex' });
