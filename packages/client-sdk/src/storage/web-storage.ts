import type { ShareStorage } from './share-storage.js';

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
 */
export class WebStorageShareStorage implements ShareStorage {
  constructor(
    private readonly storage: WebStorageLike = requireLocalStorage(),
    private readonly prefix = '',
  ) {}

  async get(walletKey: string): Promise<string | null> {
    return this.storage.getItem(this.prefix + walletKey);
  }

  async set(walletKey: string, value: string): Promise<void> {
    this.storage.setItem(this.prefix + walletKey, value);
  }

  async delete(walletKey: string): Promise<void> {
    this.storage.removeItem(this.prefix + walletKey);
  }
}

function requireLocalStorage(): WebStorageLike {
  const storage = (globalThis as { localStorage?: WebStorageLike }).localStorage;
  if (!storage) throw new TypeError('localStorage is not available here; pass a storage explicitly');
  return storage;
}
