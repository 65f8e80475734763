/**
 * One object store of one IndexedDB database, opened on first use: the little of IndexedDB
 * the storages need (get, put, delete, each resolved when its transaction has committed).
 */
export class IdbStore {
  private db: Promise<IDBDatabase> | undefined;

  constructor(
    private readonly factory: IDBFactory,
    private readonly databaseName: string,
    private readonly storeName: string,
  ) {}

  get(key: string): Promise<unknown> {
    return this.run('readonly', (store) => store.get(key));
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.run('readwrite', (store) => store.put(value, key));
  }

  async delete(key: string): Promise<void> {
    await this.run('readwrite', (store) => store.delete(key));
  }

  /** The value under `key`, or `value` stored there first: one transaction, so two tabs agree. */
  getOrAdd<T>(key: string, value: T): Promise<T> {
    return this.transaction('readwrite', (store, settle) => {
      const read = store.get(key);
      read.onsuccess = () => {
        if (read.result !== undefined) return settle(read.result as T);
        store.add(value, key);
        settle(value);
      };
    });
  }

  async close(): Promise<void> {
    if (this.db) (await this.db).close();
    this.db = undefined;
  }

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = this.factory.open(this.databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(this.storeName);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error(`IndexedDB ${this.databaseName} is blocked by another tab`));
    });
    return this.db;
  }

  private run<T>(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    return this.transaction(mode, (store, settle) => {
      const request = op(store);
      request.onsuccess = () => settle(request.result);
    });
  }

  /** Runs `op` in one transaction; resolves on commit (not on a request's success), so a write is durable when it returns. */
  private async transaction<T>(mode: IDBTransactionMode, op: (store: IDBObjectStore, settle: (value: T) => void) => void): Promise<T> {
    const db = await this.open();
    return new Promise<T>((resolve, reject) => {
      const tx = db.transaction(this.storeName, mode);
      let result: T;
      op(tx.objectStore(this.storeName), (value) => {
        result = value;
      });
      tx.oncomplete = () => resolve(result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  }
}

/** The page's IndexedDB, if it has one. */
export function globalIndexedDb(): IDBFactory | undefined {
  return (globalThis as { indexedDB?: IDBFactory }).indexedDB;
}
