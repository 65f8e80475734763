/**
 * Where the client keeps its share (P0's key material) between sessions. Keys are wallet keys
 * (see `shareStorageKey`); values are the serialised client state, opaque to the storage.
 *
 * The client share never leaves the device through this interface: the only copy that goes
 * anywhere else is the encrypted backup split across the key share nodes. An app can plug in
 * its own implementation (a native keychain, an encrypted vault) by implementing these three
 * methods.
 */
export interface ShareStorage {
  get(walletKey: string): Promise<string | null>;
  set(walletKey: string, value: string): Promise<void>;
  delete(walletKey: string): Promise<void>;
}

export type ShareCurve = 'secp256k1' | 'ed25519';

/** The storage key of one wallet's share on one curve, stable across SDK versions. */
export function shareStorageKey(walletId: string, curve: ShareCurve): string {
  if (!walletId) throw new TypeError('walletId is required');
  return `svc-wallet:${walletId}:${curve}`;
}

/** Keeps shares for the life of the page or process; the default, and for tests and servers. */
export class MemoryShareStorage implements ShareStorage {
  private readonly values = new Map<string, string>();

  async get(walletKey: string): Promise<string | null> {
    return this.values.get(walletKey) ?? null;
  }

  async set(walletKey: string, value: string): Promise<void> {
    this.values.set(walletKey, value);
  }

  async delete(walletKey: string): Promise<void> {
    this.values.delete(walletKey);
  }
}
