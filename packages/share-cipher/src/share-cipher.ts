import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets at rest. Every ciphertext names the key that sealed it, so keys
 * can rotate: new data is sealed with the current key, old data still opens with the key it
 * names until it is re-sealed. The associated data binds a ciphertext to the row and field
 * it belongs to (e.g. `wallet:<id>:server_share`), so a ciphertext copied into another row
 * or field does not open.
 */
export interface SealedSecret {
  keyId: string;
  /** iv (12 bytes) || tag (16 bytes) || ciphertext */
  ciphertext: Uint8Array;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
export const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export class ShareCipher {
  private readonly keys: Map<string, Buffer>;

  /** @param keys key id -> 32-byte key; @param currentKeyId the key new secrets are sealed with */
  constructor(keys: Map<string, Uint8Array>, private readonly currentKeyId: string) {
    this.keys = new Map();
    for (const [id, key] of keys) {
      if (!KEY_ID.test(id)) throw new Error(`share encryption key id "${id}" is not [A-Za-z0-9_-]{1,32}`);
      if (key.length !== KEY_BYTES) throw new Error(`share encryption key "${id}" must be 32 bytes`);
      this.keys.set(id, Buffer.from(key));
    }
    if (!this.keys.has(currentKeyId)) throw new Error(`share encryption key "${currentKeyId}" is not configured`);
  }

  get keyId(): string {
    return this.currentKeyId;
  }

  seal(plaintext: Uint8Array, aad: string): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { keyId: this.currentKeyId, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]) };
  }

  open(sealed: SealedSecret, aad: string): Uint8Array {
    const key = this.keys.get(sealed.keyId);
    if (!key) throw new Error(`share encryption key "${sealed.keyId}" is not configured`);
    const data = Buffer.from(sealed.ciphertext);
    if (data.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return new Uint8Array(Buffer.concat([decipher.update(data.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]));
  }

  /** A one-string form for JSON columns: `v1.<keyId>.<base64url>`. */
  sealToString(plaintext: Uint8Array, aad: string): string {
    const { keyId, ciphertext } = this.seal(plaintext, aad);
    return `v1.${keyId}.${Buffer.from(ciphertext).toString('base64url')}`;
  }

  openString(sealed: string, aad: string): Uint8Array {
    const [version, keyId, body] = sealed.split('.');
    if (version !== 'v1' || !keyId || !body) throw new Error('sealed secret string is malformed');
    return this.open({ keyId, ciphertext: Buffer.from(body, 'base64url') }, aad);
  }

  /** True when a secret was sealed with an older key and should be re-sealed. */
  needsRotation(sealed: SealedSecret): boolean {
    return sealed.keyId !== this.currentKeyId;
  }
}
