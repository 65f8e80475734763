import { IDBFactory } from 'fake-indexeddb';
import { IdbStore } from '../src/storage/idb-store.js';
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

// Sealing at rest: Node's WebCrypto (a real AES-256-GCM) and fake-indexeddb, which stores
// the CryptoKey by structured clone as a browser does.
describe('shares sealed at rest with the non-extractable key in IndexedDB', () => {
  const share = '{"v":1,"curve":"ed25519","key_package":{"signing_share":"5e5e5e5e5e5e5e5e5e5e"}}';

  it('IndexedDbShareStorage stores ciphertext that only its key opens, across connections', async () => {
    const factory = new IDBFactory();
    await new IndexedDbShareStorage('sealed', factory).set('k', share);
    const raw = (await new IdbStore(factory, 'sealed', 'shares').get('k')) as string;
    expect(raw).toMatch(/^svc-aes-gcm:1:[0-9a-f]{24}:[0-9a-f]+$/);
    expect(raw).not.toContain('5e5e5e');
    expect(await new IndexedDbShareStorage('sealed', factory).get('k')).toBe(share);

    // The key is a CryptoKey the page cannot export.
    const key = (await new IdbStore(factory, 'svc-wallet-keys', 'keys').get('share-wrapping-key')) as CryptoKey;
    expect(key).toMatchObject({ type: 'secret', extractable: false, algorithm: { name: 'AES-GCM', length: 256 } });
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });

  it('a plaintext share stored before sealing loads, and is sealed in place', async () => {
    const factory = new IDBFactory();
    await new IndexedDbShareStorage('legacy', factory, { wrap: false }).set('k', share);
    const raw = new IdbStore(factory, 'legacy', 'shares');
    expect(await raw.get('k')).toBe(share);
    expect(await new IndexedDbShareStorage('legacy', factory).get('k')).toBe(share);
    expect(await raw.get('k')).toMatch(/^svc-aes-gcm:1:/);
    expect(await new IndexedDbShareStorage('legacy', factory).get('k')).toBe(share);
  });

  it('a ciphertext moved to another slot, or sealed under another key, reads as absent', async () => {
    const factory = new IDBFactory();
    const storage = new IndexedDbShareStorage('moved', factory);
    await storage.set('a', share);
    const raw = new IdbStore(factory, 'moved', 'shares');
    await raw.put('b', await raw.get('a'));
    expect(await storage.get('b')).toBeNull();
    // Another origin's (here: another IndexedDB's) key does not open it either.
    const elsewhere = new IDBFactory();
    await new IdbStore(elsewhere, 'moved', 'shares').put('a', await raw.get('a'));
    expect(await new IndexedDbShareStorage('moved', elsewhere).get('a')).toBeNull();
  });

  it('WebStorageShareStorage seals into localStorage with the key kept in IndexedDB', async () => {
    const backing = new MapWebStorage();
    const factory = new IDBFactory();
    await new WebStorageShareStorage(backing, 'app:', { keys: factory }).set('k', share);
    expect(backing.getItem('app:k')).toMatch(/^svc-aes-gcm:1:/);
    expect(backing.getItem('app:k')).not.toContain('5e5e5e');
    expect(await new WebStorageShareStorage(backing, 'app:', { keys: factory }).get('k')).toBe(share);
  });
});
