import { globalIndexedDb } from './idb-store.js';
import type { ShareStorage } from './share-storage.js';
import { SealableShareStorage } from './share-wrapping.js';

/** The part of the Web Storage API (localStorage, sessionStorage) this adapter uses. */
export interface WebStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Shares in window.localStorage (or any Web Storage). Simple, synchronous underneath, but
 * browsers partition and may clear it (Safari's 7-day rule, private windows): the wallet then
 * recovers from the key share nodes, so losing it costs a recovery, not the funds.
 *
 * Where the page has IndexedDB and WebCrypto, the values are sealed with the origin's
 * non-extractable key held in IndexedDB (share-wrapping.ts): localStorage holds ciphertext.
 */
export class WebStorageShareStorage extends SealableShareStorage {
  constructor(storage: WebStorageLike = requireLocalStorage(), prefix = '', options: { keys?: IDBFactory } = {}) {
    const plain: ShareStorage = {
      get: async (walletKey) => storage.getItem(prefix + walletKey),
      set: async (walletKey, value) => storage.setItem(prefix + walletKey, value),
      delete: async (walletKey) => storage.removeItem(prefix + walletKey),
    };
    super(plain, options.keys ?? globalIndexedDb());
  }
}

function requireLocalStorage(): WebStorageLike {
  const storage = (globalThis as { localStorage?: WebStorageLike }).localStorage;
  if (!storage) throw new TypeError('localStorage is not available here; pass a storage explicitly');
  return storage;
}
