import { ed25519 } from '@noble/curves/ed25519.js';
import { randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { toHex } from '@svc/crypto/hex';
import { idTokenCommitKey, NonCanonicalIdTokenError } from './id-token-commit.js';
import { canonicalRequest, sha256Hex, SIGNED_REQUEST_HEADERS, type SignedRequestFields } from './protocol.js';

/**
 * A client session bound to one ID token: a fresh Ed25519 key whose public half is committed
 * to every node together with the token's commit key (SHA-256 of its canonical form,
 * id-token-commit.ts) before the token is shown to anyone (the main server included). Only the
 * holder of the secret half can then use the token, in any spelling, at a node.
 * The secret key stays inside this object and is never serialised.
 */
export class IdTokenSession {
  /** Hex SHA-256 of the exact token string: what signed requests sign (binds them to these bytes). */
  readonly idTokenHash: string;
  /** What the commit is keyed on: the same for every spelling of this token (idTokenCommitKey). */
  readonly commitKey: string;
  readonly sessionPublicKey: string;
  readonly #secretKey: Uint8Array;

  private constructor(readonly idToken: string, secretKey: Uint8Array) {
    this.#secretKey = secretKey;
    this.idTokenHash = sha256Hex(idToken);
    this.commitKey = idTokenCommitKey(idToken);
    this.sessionPublicKey = toHex(ed25519.getPublicKey(secretKey));
  }

  /**
   * A new session with a freshly generated key, for this ID token. A token that is not one
   * canonical spelling of a known format is refused here (TypeError): every node would refuse it.
   */
  static create(idToken: string): IdTokenSession {
    if (typeof idToken !== 'string' || idToken.length === 0) throw new TypeError('idToken must be a non-empty string');
    try {
      return new IdTokenSession(idToken, randomBytes(32));
    } catch (cause) {
      if (cause instanceof NonCanonicalIdTokenError) throw new TypeError(`idToken is not usable at key share nodes: ${cause.message}`, { cause });
      throw cause;
    }
  }

  /** Headers of a signed request to `nodeName` (Authorization included). */
  signedHeaders(nodeName: string, method: string, path: string, body: string, now = Date.now()): Record<string, string> {
    const fields: SignedRequestFields = {
      nodeName,
      method,
      path,
      timestamp: String(Math.floor(now)),
      nonce: toHex(randomBytes(16)),
      idTokenHash: this.idTokenHash,
      bodySha256: sha256Hex(body),
    };
    const signature = ed25519.sign(utf8ToBytes(canonicalRequest(fields)), this.#secretKey);
    return {
      authorization: `Bearer ${this.idToken}`,
      [SIGNED_REQUEST_HEADERS.timestamp]: fields.timestamp,
      [SIGNED_REQUEST_HEADERS.nonce]: fields.nonce,
      [SIGNED_REQUEST_HEADERS.signature]: toHex(signature),
    };
  }

  /** Forgets the secret key (the session can no longer sign). */
  destroy(): void {
    this.#secretKey.fill(0);
  }
}
