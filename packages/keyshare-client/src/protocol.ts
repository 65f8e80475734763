import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { keyshareNode } from '@svc/contract/client';
import { toHex } from '@svc/crypto/hex';

/**
 * The wire protocol between a client and a key share node, in one place: the node verifies
 * exactly what the client signs here (the node imports these definitions), so the two sides
 * cannot drift apart. Documented in docs/keyshare.md.
 */

/** The paths of the node's routes, from their contracts (@svc/contract `keyshareNode`). */
export const KEYSHARE_PATHS = {
  commit: keyshareNode.commitIdToken.path,
  register: keyshareNode.keyshareRegister.path,
  keyshare: keyshareNode.keyshareFetch.path,
  check: keyshareNode.keyshareCheck.path,
  info: keyshareNode.nodeInfo.path,
} as const;

/** Headers of a signed request (besides `Authorization: Bearer <ID token>`). */
export const SIGNED_REQUEST_HEADERS = {
  timestamp: 'x-ks-timestamp',
  nonce: 'x-ks-nonce',
  signature: 'x-ks-signature',
} as const;

/** First line of every signed string: a domain separator, and the version of this format. */
export const SIGNED_REQUEST_DOMAIN = 'svc-keyshare-request-v1';

/** Nonce: 16 to 32 random bytes, lowercase hex. */
export const NONCE_PATTERN = /^(?:[0-9a-f]{2}){16,32}$/;
/** Timestamp: Unix time in milliseconds, decimal, no sign or leading zeros. */
export const TIMESTAMP_PATTERN = /^[1-9][0-9]{0,15}$/;
/** Ed25519 signature: 64 bytes, lowercase hex. */
export const SIGNATURE_PATTERN = /^[0-9a-f]{128}$/;

/** The curves, and their public key lengths, the node's request fields accept. */
export { CURVES, PUBLIC_KEY_BYTES, type Curve } from '@svc/contract';

export interface SignedRequestFields {
  /** The node the request is for: a request signed for one node is refused by every other. */
  nodeName: string;
  method: string;
  /** Path only, e.g. /keyshare/v1/register (no query: these routes take none). */
  path: string;
  timestamp: string;
  nonce: string;
  /** Hex SHA-256 of the ID token the request carries (binds the signature to that token). */
  idTokenHash: string;
  /** Hex SHA-256 of the exact body bytes sent. */
  bodySha256: string;
}

/**
 * The string the session key signs. One field per line, in a fixed order; no field can hold a
 * newline (names and paths are checked by the node, the rest are hex or digits), so the
 * encoding is unambiguous.
 */
export function canonicalRequest(f: SignedRequestFields): string {
  return [SIGNED_REQUEST_DOMAIN, f.nodeName, f.method.toUpperCase(), f.path, f.timestamp, f.nonce, f.idTokenHash, f.bodySha256].join('\n');
}

/** Lowercase hex SHA-256 of UTF-8 text (the ID token hash committed to the nodes). */
export function sha256Hex(text: string | Uint8Array): string {
  return toHex(sha256(typeof text === 'string' ? utf8ToBytes(text) : text));
}
