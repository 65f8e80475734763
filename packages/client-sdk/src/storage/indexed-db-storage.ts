import type { ShareStorage } from './share-storage.js';

const STORE = 'shares';

/**
 * Shares in IndexedDB: asynchronous, larger quota and less eagerly cleared than localStorage
 * in most browsers. One object store of string values keyed by wallet key.
 */
export class IndexedDbShareStorage implements ShareStorage {
  private db: Promise<IDBDatabase> | undefined;

  constructor(
    private readonly databaseName = 'svc-wallet',
    private readonly factory: IDBFactory = requireIndexedDb(),
  ) {}

  async get(walletKey: string): Promise<string | null> {
    const value = await this.run('readonly', (store) => store.get(walletKey));
    return typeof value === 'string' ? value : null;
  }

  async set(walletKey: string, value: string): Promise<void> {
    await this.run('readwrite', (store) => store.put(value, walletKey));
  }

  async delete(walletKey: string): Promise<void> {
    await this.run('readwrite', (store) => store.delete(walletKey));
  }

  /** Closes the connection, e.g. before the app deletes the database. */
  async close(): Promise<void> {
    if (this.db) (await this.db).close();
    this.db = undefined;
  }

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = this.factory.open(this.databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error(`IndexedDB ${this.databaseName} is blocked by another tab`));
    });
    return this.db;
  }

  private async run<T>(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const db = await this.open();
    return new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = op(tx.objectStore(STORE));
      // Resolve on commit, not on the request's success, so a write is durable when we return.
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error ?? request.error);
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  }
}

function requireIndexedDb(): IDBFactory {
  const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) throw new TypeError('indexedDB is not available here; pass an IDBFactory explicitly');
  return factory;
}
