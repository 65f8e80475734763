import { IDBFactory } from 'fake-indexeddb';
import {
  IndexedDbShareStorage,
  MemoryShareStorage,
  shareStorageKey,
  WebStorageShareStorage,
  type ShareStorage,
  type WebStorageLike,
} from '../src/index.js';

/** An app-provided Web Storage (what window.localStorage offers), backed by a Map. */
class MapWebStorage implements WebStorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

// IndexedDB here is fake-indexeddb (a complete in-memory implementation of the IndexedDB
// API); the browser's own IndexedDB is exercised when the bundle runs in Chromium.
const implementations: [string, () => ShareStorage][] = [
  ['MemoryShareStorage', () => new MemoryShareStorage()],
  ['WebStorageShareStorage', () => new WebStorageShareStorage(new MapWebStorage(), 'app:')],
  ['IndexedDbShareStorage', () => new IndexedDbShareStorage('svc-wallet-test', new IDBFactory())],
];

describe.each(implementations)('%s', (_name, make) => {
  it('stores, replaces, isolates and deletes values by wallet key', async () => {
    const storage = make();
    const a = shareStorageKey('wallet-a', 'ed25519');
    const b = shareStorageKey('wallet-a', 'secp256k1');
    expect(await storage.get(a)).toBeNull();
    await storage.set(a, '{"v":1,"share":"aa"}');
    await storage.set(b, '{"v":1,"share":"bb"}');
    expect(await storage.get(a)).toBe('{"v":1,"share":"aa"}');
    await storage.set(a, '{"v":1,"share":"cc"}');
    expect(await storage.get(a)).toBe('{"v":1,"share":"cc"}');
    await storage.delete(a);
    expect(await storage.get(a)).toBeNull();
    expect(await storage.get(b)).toBe('{"v":1,"share":"bb"}');
    await storage.delete('never-set'); // deleting a missing key is not an error
  });
});

describe('storage specifics', () => {
  it('WebStorageShareStorage prefixes its keys', async () => {
    const backing = new MapWebStorage();
    await new WebStorageShareStorage(backing, 'app:').set('k', 'v');
    expect([...backing.items.keys()]).toEqual(['app:k']);
  });

  it('IndexedDbShareStorage keeps values across connections to the same database', async () => {
    const factory = new IDBFactory();
    const first = new IndexedDbShareStorage('persist', factory);
    await first.set('k', 'v');
    await first.close();
    expect(await new IndexedDbShareStorage('persist', factory).get('k')).toBe('v');
  });

  it('the browser-only storages say so when their API is missing', () => {
    expect(() => new WebStorageShareStorage()).toThrow(/localStorage is not available/);
    expect(() => new IndexedDbShareStorage()).toThrow(/indexedDB is not available/);
  });

  it('shareStorageKey is stable and needs a wallet id', () => {
    expect(shareStorageKey('w1', 'secp256k1')).toBe('svc-wallet:w1:secp256k1');
    expect(() => shareStorageKey('', 'ed25519')).toThrow(TypeError);
  });
});
