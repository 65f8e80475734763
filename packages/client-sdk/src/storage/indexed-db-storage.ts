import { globalIndexedDb, IdbStore } from './idb-store.js';
import type { ShareStorage } from './share-storage.js';
import { SealableShareStorage } from './share-wrapping.js';

export interface IndexedDbShareStorageOptions {
  /**
   * Seal the values with the origin's non-extractable AES-GCM key (share-wrapping.ts), kept in
   * IndexedDB (database svc-wallet-keys). Default: whenever WebCrypto is available.
   */
  wrap?: boolean;
}

/**
 * Shares in IndexedDB: asynchronous, larger quota and less eagerly cleared than localStorage
 * in most browsers. One object store of string values keyed by wallet key, sealed at rest.
 */
export class IndexedDbShareStorage extends SealableShareStorage {
  private readonly store: IdbStore;

  constructor(databaseName = 'svc-wallet', factory: IDBFactory = requireIndexedDb(), options: IndexedDbShareStorageOptions = {}) {
    const store = new IdbStore(factory, databaseName, 'shares');
    const plain: ShareStorage = {
      get: async (walletKey) => {
        const value = await store.get(walletKey);
        return typeof value === 'string' ? value : null;
      },
      set: (walletKey, value) => store.put(walletKey, value),
      delete: (walletKey) => store.delete(walletKey),
    };
    super(plain, factory, options.wrap);
    this.store = store;
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
