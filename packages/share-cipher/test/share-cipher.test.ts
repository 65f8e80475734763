import { randomBytes } from 'node:crypto';
import { EnvReader } from '@svc/config';
import { generateShareKey, readShareCipherConfig, ShareCipher } from '../src/index.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const secret = new TextEncoder().encode('server share bytes');

describe('ShareCipher', () => {
  it('seals and opens, never leaving the plaintext in the ciphertext', () => {
    const cipher = new ShareCipher(new Map([['k1', k1]]), 'k1');
    const sealed = cipher.seal(secret, 'wallet:1:share');
    expect(Buffer.from(sealed.ciphertext).includes(Buffer.from(secret))).toBe(false);
    expect(cipher.open(sealed, 'wallet:1:share')).toEqual(secret);
    expect(cipher.openString(cipher.sealToString(secret, 'a'), 'a')).toEqual(secret);
  });

  it('refuses a ciphertext moved to another row or field, or tampered with', () => {
    const cipher = new ShareCipher(new Map([['k1', k1]]), 'k1');
    const sealed = cipher.seal(secret, 'wallet:1:share');
    expect(() => cipher.open(sealed, 'wallet:2:share')).toThrow();
    const tampered = Uint8Array.from(sealed.ciphertext);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => cipher.open({ ...sealed, ciphertext: tampered }, 'wallet:1:share')).toThrow();
  });

  it('rotates: old secrets open with the key they name, new ones use the current key', () => {
    const old = new ShareCipher(new Map([['k1', k1]]), 'k1');
    const sealedOld = old.seal(secret, 'x');
    const rotated = new ShareCipher(new Map([['k1', k1], ['k2', k2]]), 'k2');
    expect(rotated.open(sealedOld, 'x')).toEqual(secret);
    expect(rotated.needsRotation(sealedOld)).toBe(true);
    expect(rotated.seal(secret, 'x').keyId).toBe('k2');
  });

  it('reads its keys from configuration and reports bad ones', () => {
    const good = new EnvReader({ SHARE_ENCRYPTION_KEYS: `${generateShareKey('a')},${generateShareKey('b')}` });
    const build = readShareCipherConfig(good);
    good.done();
    expect(build().keyId).toBe('b');
    const bad = new EnvReader({ SHARE_ENCRYPTION_KEYS: 'a:c2hvcnQ=', SHARE_ENCRYPTION_KEY_ID: 'z' });
    readShareCipherConfig(bad);
    expect(() => bad.done()).toThrow(/must be <id>:<base64 of 32 bytes>[\s\S]*SHARE_ENCRYPTION_KEY_ID "z"/);
  });

  it('never quotes a key in its messages: an entry without its id, or with key and id swapped, is named by its position', () => {
    const key = k1.toString('base64');
    for (const entries of [key, `${key}:k1`]) {
      const env = new EnvReader({ SHARE_ENCRYPTION_KEYS: entries, SHARE_ENCRYPTION_KEY_ID: key });
      readShareCipherConfig(env);
      expect(() => env.done()).toThrow(/SHARE_ENCRYPTION_KEYS entry 1 must be <id>:<base64 of 32 bytes>[\s\S]*SHARE_ENCRYPTION_KEY_ID is not one of the ids/);
      expect(() => env.done()).not.toThrow(key);
    }
  });

  it('refuses one key id listed twice (a new key named like an old one would make the old rows unreadable)', () => {
    const env = new EnvReader({ SHARE_ENCRYPTION_KEYS: `${generateShareKey('k1')},${generateShareKey('k1')}` });
    readShareCipherConfig(env);
    expect(() => env.done()).toThrow(/SHARE_ENCRYPTION_KEYS lists the id "k1" more than once/);
  });
});
