import { globalIndexedDb, IdbStore } from './idb-store.js';
import type { ShareStorage } from './share-storage.js';
import { canWrapShares, indexedDbWrappingKey, WrappedShareStorage } from './share-wrapping.js';

export interface IndexedDbShareStorageOptions {
  /**
   * Seal the values with the origin's non-extractable AES-GCM key (share-wrapping.ts), kept in
   * the same IndexedDB. Default: whenever WebCrypto is available.
   */
  wrap?: boolean;
}

/**
 * Shares in IndexedDB: asynchronous, larger quota and less eagerly cleared than localStorage
 * in most browsers. One object store of string values keyed by wallet key, sealed at rest.
 */
export class IndexedDbShareStorage implements ShareStorage {
  private readonly store: IdbStore;
  private readonly values: ShareStorage;

  constructor(databaseName = 'svc-wallet', factory: IDBFactory = requireIndexedDb(), options: IndexedDbShareStorageOptions = {}) {
    this.store = new IdbStore(factory, databaseName, 'shares');
    const plain: ShareStorage = {
      get: async (walletKey) => {
        const value = await this.store.get(walletKey);
        return typeof value === 'string' ? value : null;
      },
      set: (walletKey, value) => this.store.put(walletKey, value),
      delete: (walletKey) => this.store.delete(walletKey),
    };
    const wrap = options.wrap ?? canWrapShares(factory);
    this.values = wrap ? new WrappedShareStorage(plain, indexedDbWrappingKey(factory)) : plain;
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

  /** Closes the connection, e.g. before the app deletes the database. */
  close(): Promise<void> {
    return this.store.close();
  }
}

function requireIndexedDb(): IDBFactory {
  const factory = globalIndexedDb();
  if (!factory) throw new TypeError('indexedDB is not available here; pass an IDBFactory explicitly');
  return factory;
}
