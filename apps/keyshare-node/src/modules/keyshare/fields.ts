import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { FieldRules } from '@svc/http';
import { CURVES, PUBLIC_KEY_BYTES, type Curve } from '@svc/keyshare-client';

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

/** Validation rules (and documentation) of the wallet fields every key share route takes. */
export const walletFields: FieldRules = {
  curve_type: {
    exists: { errorMessage: 'curve_type is required', bail: true },
    isIn: { options: [CURVES], errorMessage: `curve_type must be one of ${CURVES.join(', ')}` },
  },
  public_key: {
    exists: { errorMessage: 'public_key is required', bail: true },
    isString: { errorMessage: 'Invalid public key', bail: true },
    custom: {
      options: (value: unknown, { req }) => isValidPublicKey(req.body?.curve_type, value),
      errorMessage: 'Invalid public key',
    },
  },
};

export const hex64 = (field: string): FieldRules[string] => ({
  exists: { errorMessage: `${field} is required`, bail: true },
  isString: { errorMessage: `${field} must be a string`, bail: true },
  matches: { options: /^[0-9a-f]{64}$/, errorMessage: `${field} must be 32 bytes in lowercase hex` },
});
