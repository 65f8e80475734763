// The session layer against the real stack (gateway, tss-api on embedded PostgreSQL, three
// key share nodes): the session persisted and restored, server-side sign-out, SESSION_EXPIRED,
// AbortSignal, and shares sealed at rest (fake-indexeddb + Node's WebCrypto AES-GCM).
import { randomUUID } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { HttpClient, IndexedDbShareStorage, MemoryShareStorage, SESSION_STORAGE_KEY, SvcError, SvcWallet, shareStorageKey, type FetchLike } from '../src/index.js';
import { IdbStore } from '../src/storage/idb-store.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const newWallet = (overrides: Partial<ConstructorParameters<typeof SvcWallet>[0]> = {}) =>
  new SvcWallet({ gatewayUrl: stack.gatewayUrl, apiKey: stack.apiKey, storage: new MemoryShareStorage(), presignaturePoolSize: 0, ...overrides });

const mails = new Map<string, number>();
async function emailIdToken(wallet: SvcWallet, email: string): Promise<string> {
  const n = (mails.get(email) ?? 0) + 1;
  mails.set(email, n);
  await wallet.requestEmailCode(email);
  return wallet.verifyEmailCode(email, await stack.emailCode(email, n));
}

async function userWithWallet(overrides: Partial<ConstructorParameters<typeof SvcWallet>[0]> = {}): Promise<{ wallet: SvcWallet; email: string }> {
  const email = `session-${randomUUID().slice(0, 8)}@example.com`;
  const wallet = newWallet(overrides);
  expect((await wallet.signIn(await emailIdToken(wallet, email))).status).toBe('needs_keygen');
  await wallet.keygen();
  return { wallet, email };
}

const shareKeys = (wallet: SvcWallet) => wallet.user!.wallets.map((w) => shareStorageKey(w.wallet_id, w.curve));
const message = new TextEncoder().encode('session layer');

/** The answer of an authenticated route for a bare JWT (no SDK refresh in between). */
const silentRefreshWith = (jwt: string) =>
  new HttpClient({ gatewayUrl: stack.gatewayUrl, apiKey: stack.apiKey }).post('/tss/v1/user/signin_silently', undefined, { bearer: jwt });

describe('the session persisted in the wallet storage', () => {
  it('is restored by a new SvcWallet over the same IndexedDB, sealed at rest like the shares', async () => {
    const factory = new IDBFactory();
    const storage = () => new IndexedDbShareStorage('svc-wallet', factory);
    const { wallet } = await userWithWallet({ storage: storage() });

    const reloaded = newWallet({ storage: storage() });
    const outcome = await reloaded.restore();
    expect(outcome).toMatchObject({ status: 'ready', user: { user_id: wallet.user!.user_id } });
    expect(reloaded.api.jwt).not.toBe(wallet.api.jwt); // refreshed through signin_silently
    const signature = await (await reloaded.signers()).ed25519.sign(message);
    expect(signature).toHaveLength(64);

    // What IndexedDB holds is ciphertext: no share scalar, no JWT.
    const ed = JSON.parse((await reloaded.storage.get(shareKeys(wallet).find((k) => k.endsWith('ed25519'))!))!) as { key_package: { signing_share: string } };
    const secp = JSON.parse((await reloaded.storage.get(shareKeys(wallet).find((k) => k.endsWith('secp256k1'))!))!) as { secret_share: string };
    expect(ed.key_package.signing_share).toMatch(/^[0-9a-f]{64}$/);
    const raw = new IdbStore(factory, 'svc-wallet', 'shares');
    for (const key of [...shareKeys(wallet), SESSION_STORAGE_KEY]) {
      const value = (await raw.get(key)) as string;
      expect(value).toMatch(/^svc-aes-gcm:1:/);
      for (const secret of [ed.key_package.signing_share, secp.secret_share, reloaded.api.jwt!]) expect(value).not.toContain(secret);
    }
  });

  it('restore() is null without a stored session', async () => {
    expect(await newWallet().restore()).toBeNull();
  });
});

describe('signOut', () => {
  it('revokes the token at the server and clears the stored session; forgetDevice also erases the shares', async () => {
    const { wallet, email } = await userWithWallet();
    const jwt = wallet.api.jwt!;
    expect(await wallet.signOut()).toEqual({ revoked: true });
    await expect(silentRefreshWith(jwt)).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(wallet.user).toBeUndefined();
    expect(await wallet.storage.get(SESSION_STORAGE_KEY)).toBeNull();
    expect(await newWallet({ storage: wallet.storage }).restore()).toBeNull();
    // The shares stay: signing in again on this device is ready.
    const again = newWallet({ storage: wallet.storage });
    expect((await again.signIn(await emailIdToken(again, email))).status).toBe('ready');

    const keys = shareKeys(again);
    expect(await again.signOut({ forgetDevice: true })).toEqual({ revoked: true });
    for (const key of keys) expect(await again.storage.get(key)).toBeNull();
    const fresh = newWallet({ storage: again.storage });
    expect((await fresh.signIn(await emailIdToken(fresh, email))).status).toBe('needs_recovery');
  });

  it('clears the local session even when the server cannot be reached, and says so', async () => {
    const offline: FetchLike = (input, init) => (input.endsWith('/tss/v1/user/signout') ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init));
    const { wallet } = await userWithWallet({ fetch: offline });
    const jwt = wallet.api.jwt!;
    const result = await wallet.signOut();
    expect(result).toMatchObject({ revoked: false, error: { code: 'NETWORK_ERROR' } });
    expect(result.error).toBeInstanceOf(SvcError);
    expect(wallet.api.signedIn).toBe(false);
    expect(await wallet.storage.get(SESSION_STORAGE_KEY)).toBeNull();
    // Not revoked: the server still accepts the token (the app may retry the revocation).
    await expect(silentRefreshWith(jwt)).resolves.toMatchObject({ token: expect.any(String) });
  });
});

describe('SESSION_EXPIRED', () => {
  it('a token revoked elsewhere ends the session: concurrent calls fail, the hook runs once, the stored session is erased', async () => {
    const expired: SvcError[] = [];
    const { wallet } = await userWithWallet({ onSessionExpired: (e) => expired.push(e) });
    const signers = await wallet.signers();
    // Signed out from elsewhere (another tab's signOut with the same token).
    await new HttpClient({ gatewayUrl: stack.gatewayUrl, apiKey: stack.apiKey }).post('/tss/v1/user/signout', undefined, { bearer: wallet.api.jwt! });

    const failures = await Promise.all([signers.ed25519.sign(message), signers.ed25519.sign(message)].map((p) => p.catch((e: unknown) => e)));
    for (const f of failures) expect(f).toMatchObject({ code: 'SESSION_EXPIRED', status: 0 });
    await expect(signers.ed25519.sign(message)).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ code: 'SESSION_EXPIRED', cause: { code: 'UNAUTHORIZED', status: 401 } });
    expect(wallet.user).toBeUndefined();
    expect(await wallet.storage.get(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('a stored session the server no longer refreshes: restore() is SESSION_EXPIRED', async () => {
    const expired: SvcError[] = [];
    const { wallet } = await userWithWallet();
    // Another device restored (and so rotated) the stored token first.
    const storage = new MemoryShareStorage();
    await storage.set(SESSION_STORAGE_KEY, (await wallet.storage.get(SESSION_STORAGE_KEY))!);
    await newWallet({ storage: wallet.storage }).restore();
    const late = newWallet({ storage, onSessionExpired: (e) => expired.push(e) });
    await expect(late.restore()).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(expired).toHaveLength(1);
    expect(await storage.get(SESSION_STORAGE_KEY)).toBeNull();
  });
});

describe('two tabs over the same storage', () => {
  /** A signed-in first tab with its signers, and a second tab over the same IndexedDB. */
  async function twoTabs() {
    const factory = new IDBFactory();
    const storage = () => new IndexedDbShareStorage('svc-wallet', factory);
    const expired: SvcError[] = [];
    const { wallet: first } = await userWithWallet({ storage: storage(), onSessionExpired: (e) => expired.push(e) });
    return { storage, expired, first, signers: await first.signers(), second: newWallet({ storage: storage() }) };
  }

  it("a second tab restoring the session does not end the first tab's: the first adopts the token the second stored", async () => {
    const { expired, first, signers, second } = await twoTabs();
    const before = first.api.jwt!;
    expect(await second.restore()).toMatchObject({ status: 'ready' }); // rotates the token: the first tab's is revoked
    await expect(silentRefreshWith(before)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    expect(await signers.ed25519.sign(message)).toHaveLength(64);
    expect(first.api.jwt).toBe(second.api.jwt);
    expect(expired).toEqual([]);
    expect(await (await second.signers()).ed25519.sign(message)).toHaveLength(64);
  });

  it("a second tab's sign-out ends the first tab's session, and a token of another account is never adopted", async () => {
    const { storage, expired, signers, second } = await twoTabs();
    await second.restore();
    await second.signOut();
    await expect(signers.ed25519.sign(message)).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(expired).toHaveLength(1);

    // Someone else signs in on the second tab; the first tab, signed in again as before, is then
    // refused (its token rotated by a restore elsewhere) and must not take the other account's.
    const { wallet: again } = await userWithWallet({ storage: storage(), onSessionExpired: (e) => expired.push(e) });
    const againSigners = await again.signers();
    await newWallet({ storage: storage() }).restore();
    const other = newWallet({ storage: storage() });
    const otherEmail = `session-${randomUUID().slice(0, 8)}@example.com`;
    expect((await other.signIn(await emailIdToken(other, otherEmail))).status).toBe('needs_keygen');
    await other.keygen();
    await expect(againSigners.ed25519.sign(message)).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(again.api.jwt).toBeUndefined();
    expect(expired).toHaveLength(2);
  });
});

describe('AbortSignal', () => {
  /** A fetch that aborts `controller` as the request matching `when` goes out (it then completes at the server). */
  const abortingFetch =
    (controller: AbortController, when: (url: string) => boolean): FetchLike =>
    async (input, init) => {
      const response = await fetch(input, { ...init, signal: null });
      if (when(input)) controller.abort();
      return response;
    };

  it('keygen aborted between backup steps: SvcError ABORTED, no share stored, no wallet at the server', async () => {
    const controller = new AbortController();
    const email = `abort-${randomUUID().slice(0, 8)}@example.com`;
    const wallet = newWallet({ fetch: abortingFetch(controller, (url) => url.endsWith('/keyshare/v1/register')) });
    expect((await wallet.signIn(await emailIdToken(wallet, email))).status).toBe('needs_keygen');
    const failure = await wallet.keygen({ signal: controller.signal }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SvcError);
    expect(failure).toMatchObject({ code: 'ABORTED' });
    expect(await wallet.storage.get(SESSION_STORAGE_KEY)).toBeNull();
    const fresh = newWallet({ storage: wallet.storage });
    expect((await fresh.signIn(await emailIdToken(fresh, email))).status).toBe('needs_keygen');
  });

  it('a signature aborted while its call is in flight: SvcError ABORTED, storage unchanged, the next signature works', async () => {
    const { wallet } = await userWithWallet();
    const before = await Promise.all(shareKeys(wallet).map((k) => wallet.storage.get(k)));
    const controller = new AbortController();
    // The app's signal fires as the signing request leaves (Ed25519 signs in one call).
    const abortingOnSend: FetchLike = async (input, init) => {
      if (input.endsWith('/tss/v1/sign')) controller.abort();
      return fetch(input, init);
    };
    const aborting = newWallet({ storage: wallet.storage, fetch: abortingOnSend });
    await aborting.resume(wallet.api.jwt!);
    const signers = await aborting.signers({ signal: controller.signal });
    const failure = await signers.ed25519.sign(message).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SvcError);
    expect(failure).toMatchObject({ code: 'ABORTED' });
    expect(await Promise.all(shareKeys(wallet).map((k) => wallet.storage.get(k)))).toEqual(before);
    expect(await (await aborting.signers()).ed25519.sign(message)).toHaveLength(64);
  });

  it('an aborted signal stops a flow before any request', async () => {
    let requests = 0;
    const counting: FetchLike = (input, init) => {
      requests += 1;
      return fetch(input, init);
    };
    const wallet = newWallet({ fetch: counting });
    const signal = AbortSignal.abort();
    await expect(wallet.requestEmailCode('nobody@example.com', { signal })).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(wallet.signIn('not-even-a-jwt', { signal })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(requests).toBe(0);
  });
});
