import { ed25519 } from '@noble/curves/ed25519.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { AppError } from '@svc/envelope';
import { fromHex } from '@svc/crypto';
import { canonicalRequest, NONCE_PATTERN, sha256Hex, SIGNATURE_PATTERN, TIMESTAMP_PATTERN } from '@svc/keyshare-client';

export interface SignedRequestInput {
  nodeName: string;
  method: string;
  path: string;
  idTokenHash: string;
  body: Uint8Array;
  timestamp: string | undefined;
  nonce: string | undefined;
  signature: string | undefined;
}

/** The header checks that need neither the token nor the database (done first, cheaply). */
export function checkSignedRequestShape(input: SignedRequestInput, now: number, windowMs: number): { timestampMs: number; nonce: string; signature: string } {
  const { timestamp, nonce, signature } = input;
  if (timestamp === undefined || nonce === undefined || signature === undefined) {
    throw new AppError('INVALID_REQUEST_SIGNATURE', 'X-KS-Timestamp, X-KS-Nonce and X-KS-Signature headers are required');
  }
  if (!TIMESTAMP_PATTERN.test(timestamp)) throw new AppError('INVALID_REQUEST_SIGNATURE', 'X-KS-Timestamp must be Unix time in milliseconds');
  if (!NONCE_PATTERN.test(nonce)) throw new AppError('INVALID_REQUEST_SIGNATURE', 'X-KS-Nonce must be 16 to 32 random bytes in lowercase hex');
  if (!SIGNATURE_PATTERN.test(signature)) throw new AppError('INVALID_REQUEST_SIGNATURE', 'X-KS-Signature must be a 64-byte Ed25519 signature in lowercase hex');
  const timestampMs = Number(timestamp);
  if (Math.abs(now - timestampMs) > windowMs) {
    throw new AppError('INVALID_REQUEST_SIGNATURE', `Request timestamp is outside the allowed window of ${windowMs / 1000} s`);
  }
  return { timestampMs, nonce, signature };
}

/** Verifies the session key's signature over the canonical request (see @svc/keyshare-client protocol). */
export function checkRequestSignature(input: SignedRequestInput, sessionPublicKey: string): void {
  const message = canonicalRequest({
    nodeName: input.nodeName,
    method: input.method,
    path: input.path,
    timestamp: input.timestamp!,
    nonce: input.nonce!,
    idTokenHash: input.idTokenHash,
    bodySha256: sha256Hex(input.body),
  });
  let valid = false;
  try {
    valid = ed25519.verify(fromHex(input.signature, 'signature', 64), utf8ToBytes(message), fromHex(sessionPublicKey, 'session key', 32));
  } catch {
    valid = false;
  }
  if (!valid) throw new AppError('INVALID_REQUEST_SIGNATURE', 'Request signature does not verify with the committed session key');
}
