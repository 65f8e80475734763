import type { EnvReader } from '@svc/config';
import { KEY_ID, ShareCipher } from './share-cipher.js';

/**
 * Reads `SHARE_ENCRYPTION_KEYS` ("id1:<base64 32 bytes>,id2:<base64 32 bytes>") and
 * `SHARE_ENCRYPTION_KEY_ID` (the id new secrets are sealed with; default: the last listed).
 * Problems are recorded on the reader; the cipher is built once `env.done()` passed.
 */
export function readShareCipherConfig(env: EnvReader, prefix = 'SHARE_ENCRYPTION'): () => ShareCipher {
  const raw = env.string(`${prefix}_KEYS`);
  const keys = new Map<string, Uint8Array>();
  for (const [n, entry] of raw.split(',').map((e) => e.trim()).filter(Boolean).entries()) {
    const [id = '', b64] = entry.split(':');
    const key = b64 ? Buffer.from(b64, 'base64') : Buffer.alloc(0);
    // An entry is named by its id only when that looks like one: an entry without its "<id>:",
    // or with key and id swapped, has the key where the id goes, and this message is logged.
    if (!KEY_ID.test(id) || key.length !== 32) env.fail(`${prefix}_KEYS entry ${KEY_ID.test(id) ? `"${id}"` : n + 1} must be <id>:<base64 of 32 bytes>`);
    // A second key under one id would silently win: rows sealed with the first stop opening, and
    // rows sealed meanwhile carry an id that, once the list is corrected, names another key.
    else if (keys.has(id)) env.fail(`${prefix}_KEYS lists the id "${id}" more than once`);
    else keys.set(id, key);
  }
  const current = env.optionalString(`${prefix}_KEY_ID`) ?? [...keys.keys()].at(-1) ?? '';
  if (raw && !keys.has(current)) {
    env.fail(current === '' || KEY_ID.test(current) ? `${prefix}_KEY_ID "${current}" is not one of ${prefix}_KEYS` : `${prefix}_KEY_ID is not one of the ids of ${prefix}_KEYS (nor an id: its value is not shown)`);
  }
  return () => new ShareCipher(keys, current);
}

/** A fresh key in the format of SHARE_ENCRYPTION_KEYS, for `pnpm start` and tests. */
export function generateShareKey(id: string): string {
  return `${id}:${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
}
