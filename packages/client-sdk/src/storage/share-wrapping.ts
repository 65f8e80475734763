import { fromHex, toHex } from '@svc/crypto/hex';
import { IdbStore } from './idb-store.js';
import type { ShareStorage } from './share-storage.js';

/*
 * Shares at rest in the browser: AES-256-GCM under a key WebCrypto generated non-extractable
 * and IndexedDB keeps (a CryptoKey is structured-cloneable, its bytes never reach script). What
 * the storage holds is ciphertext: a script that reads localStorage or the database, or a disk
 * image, gets no share; only code running in this origin can have the browser decrypt.
 */

const PREFIX = 'svc-aes-gcm:1:';
const KEY_DATABASE = 'svc-wallet-keys';
const KEY_NAME = 'share-wrapping-key';

/** Where the wrapping key comes from (one per origin by default). */
export type WrappingKeySource = () => Promise<CryptoKey>;

/** The origin's wrapping key in IndexedDB, generated on first use (non-extractable). */
export function indexedDbWrappingKey(factory: IDBFactory, databaseName = KEY_DATABASE): WrappingKeySource {
  const store = new IdbStore(factory, databaseName, 'keys');
  let key: Promise<CryptoKey> | undefined;
  return () => {
    key ??= (async () => {
      const candidate = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      // Another tab may have stored its key first: then that one is the key.
      return store.getOrAdd(KEY_NAME, candidate);
    })();
    key.catch(() => {
      key = undefined;
    });
    return key;
  };
}

/** Whether this runtime can wrap shares (WebCrypto and IndexedDB). */
export function canWrapShares(factory: IDBFactory | undefined): factory is IDBFactory {
  return factory !== undefined && typeof globalThis.crypto?.subtle?.generateKey === 'function';
}

/**
 * A ShareStorage whose values are sealed before they reach `inner`. The storage key is the
 * associated data, so a ciphertext moved to another wallet's slot does not open. A value
 * stored before wrapping existed (plaintext) still loads, and is sealed in place as it is read.
 * One that no longer opens (the key was cleared with the site's IndexedDB) reads as absent:
 * the wallet then recovers from the key share nodes.
 */
export class WrappedShareStorage implements ShareStorage {
  constructor(
    private readonly inner: ShareStorage,
    private readonly key: WrappingKeySource,
  ) {}

  async get(walletKey: string): Promise<string | null> {
    const stored = await this.inner.get(walletKey);
    if (stored === null) return null;
    if (!stored.startsWith(PREFIX)) {
      await this.set(walletKey, stored);
      return stored;
    }
    const [iv, sealed] = stored.slice(PREFIX.length).split(':');
    const key = await this.key();
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: new Uint8Array(fromHex(iv ?? '', 'iv', 12)), additionalData: new TextEncoder().encode(walletKey) },
        key,
        new Uint8Array(fromHex(sealed ?? '', 'ciphertext')),
      );
      return new TextDecoder().decode(plain);
    } catch {
      return null;
    }
  }

  async set(walletKey: string, value: string): Promise<void> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(walletKey) },
      await this.key(),
      new TextEncoder().encode(value),
    );
    await this.inner.set(walletKey, `${PREFIX}${toHex(iv)}:${toHex(new Uint8Array(sealed))}`);
  }

  delete(walletKey: string): Promise<void> {
    return this.inner.delete(walletKey);
  }
}

/**
 * A browser storage over its plain backing (`plain`), sealed with the origin's key in `keys`
 * when `wrap` (default: whenever this runtime can wrap).
 */
export abstract class SealableShareStorage implements ShareStorage {
  private readonly values: ShareStorage;

  protected constructor(plain: ShareStorage, keys: IDBFactory | undefined, wrap: boolean = canWrapShares(keys)) {
    this.values = wrap && keys ? new WrappedShareStorage(plain, indexedDbWrappingKey(keys)) : plain;
  }

  get(walletKey: string): Promise<string | null> {
    return this.values.get(walletKey);
  }

  set(walletKey: string, value: string): Promise<void> {
    return this.values.set(walletKey, value);
  }

  delete(walletKey: string): Promise<void> {
    return this.values.delete(walletKey);
  }
}
