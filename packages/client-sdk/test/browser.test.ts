import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { randomUUID } from 'node:crypto';
import { build } from 'esbuild';
import type { BrowserContext } from 'playwright-core';
import { verifyMessage } from 'viem';
import { opensslVerifies } from './helpers/svm-verify.js';
import { launchChromium, type Browser } from './support/chromium.js';
import { startStack, type Stack } from './support/stack.js';

/*
 * The SDK bundle in a real browser: headless Chromium from the npm registry (support/chromium.ts)
 * driven by playwright-core, a page served from 127.0.0.1 talking to the in-process stack (the
 * gateway and the key share nodes answer CORS) with the browser's fetch, WebCrypto and
 * IndexedDB. The gateway's /docs page is checked in the same browser.
 */

let stack: Stack;
let page: Server;
let pageUrl: string;
let browser: Browser;
let context: BrowserContext;
/** The bundle's files by URL path, and the ones the page fetched, in order. */
const scripts = new Map<string, string>();
const requested: string[] = [];

beforeAll(async () => {
  // Settled one by one, so that afterAll stops whatever did start when another part failed.
  // Code-split as an app's build makes it: the page loads /sdk.js, and the SDK fetches the
  // chunks of its deferred parts (the ECDSA protocol, keygen and recovery) when it needs them.
  const outdir = join(import.meta.dirname, 'browser-bundle');
  const started = await Promise.allSettled([
    startStack().then((s) => (stack = s)),
    build({
      entryPoints: { sdk: join(import.meta.dirname, 'browser/page-entry.ts') },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      splitting: true,
      outdir,
      chunkNames: 'chunks/[name]-[hash]',
      write: false,
      logLevel: 'silent',
    }).then((bundle) => {
      for (const file of bundle.outputFiles) scripts.set(`/${relative(outdir, file.path)}`, file.text);
    }),
    launchChromium().then((b) => {
      browser = b;
      context = b.context;
    }),
  ]);
  for (const r of started) if (r.status === 'rejected') throw r.reason;
  page = createServer((req, res) => {
    const script = scripts.get(req.url ?? '');
    if (script !== undefined) {
      requested.push(req.url!);
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><meta charset="utf-8"><title>svc wallet</title><script type="module" src="/sdk.js"></script>');
    }
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
  await stack?.stop();
});

describe('the SDK bundle in headless Chromium', () => {
  it('signs in with an email code, runs keygen and returns Ed25519 and ECDSA signatures that verify, also to a dapp through EIP-6963 and EIP-1193', async () => {
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(pageUrl);
    await tab.waitForFunction(() => 'journey' in globalThis);
    const deferred = (name: string) => requested.filter((url) => url.startsWith(`/chunks/${name}-`));
    expect(deferred('once-flows')).toEqual([]);
    expect(deferred('ecdsa-tss')).toEqual([]);
    const email = `browser-${randomUUID().slice(0, 8)}@example.com`;

    await tab.evaluate(([g, k, e]) => (globalThis as unknown as { journey: { start(a: string, b: string, c: string): Promise<void> } }).journey.start(g, k, e), [stack.gatewayUrl, stack.apiKey, email] as const);
    const code = await stack.emailCode(email);
    const result = await tab.evaluate(
      ([e, c]) => (globalThis as unknown as { journey: { finish(a: string, b: string): Promise<Record<string, unknown>> } }).journey.finish(e, c),
      [email, code] as const,
    );

    expect(result).toMatchObject({ status: 'needs_keygen', keygen: true });
    // Keygen and the ECDSA signature fetched their parts of the SDK, each once.
    expect(deferred('once-flows')).toHaveLength(1);
    expect(deferred('ecdsa-tss')).toHaveLength(1);
    const signature = Buffer.from(result.signature as string, 'hex');
    const publicKey = Buffer.from(result.publicKey as string, 'hex');
    expect(opensslVerifies(publicKey, signature, new TextEncoder().encode('signed in Chromium'))).toBe(true);
    // ECDSA computed in the page (triples, presign, sign against tss-api), verified by viem here.
    expect(result.ecdsa).toMatch(/^0x[0-9a-f]{130}$/);
    const address = result.ethereumAddress as `0x${string}`;
    expect(await verifyMessage({ address, message: 'signed in Chromium', signature: result.ecdsa as `0x${string}` })).toBe(true);
    // A dapp finds the wallet through EIP-6963 and signs through its EIP-1193 provider.
    const dapp = await tab.evaluate(() => (globalThis as unknown as { journey: { dapp(): Promise<{ rdns: string[]; accounts: `0x${string}`[]; signature: `0x${string}` }> } }).journey.dapp());
    expect(dapp.rdns).toEqual(['com.example.svc']);
    expect(dapp.accounts).toEqual([address]);
    expect(await verifyMessage({ address, message: 'found by EIP-6963', signature: dapp.signature })).toBe(true);

    // The client shares and the session landed in the browser's IndexedDB, sealed: ciphertext
    // under a non-extractable AES-GCM key that IndexedDB holds as a CryptoKey.
    const stored = await tab.evaluate(async () => {
      const all = (name: string, store: string) =>
        new Promise<[IDBValidKey[], unknown[]]>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction(store, 'readonly');
            const keys = tx.objectStore(store).getAllKeys();
            const values = tx.objectStore(store).getAll();
            tx.oncomplete = () => resolve([keys.result, values.result]);
            tx.onerror = () => reject(tx.error);
          };
        });
      const [keys, values] = await all('svc-wallet-browser-test', 'shares');
      const [, [key]] = await all('svc-wallet-keys', 'keys');
      const wrapping = key as CryptoKey;
      return { keys: keys.map(String), values: values as string[], key: { type: wrapping.type, extractable: wrapping.extractable, algorithm: wrapping.algorithm.name } };
    });
    expect(stored.keys.filter((k) => /^svc-wallet:[^:]+:(ed25519|secp256k1)$/.test(k))).toHaveLength(2);
    expect(stored.keys).toContain('svc-wallet:session');
    for (const value of stored.values) expect(value).toMatch(/^svc-aes-gcm:1:[0-9a-f]{24}:[0-9a-f]+$/);
    expect(stored.key).toEqual({ type: 'secret', extractable: false, algorithm: 'AES-GCM' });

    // A reload: a new SvcWallet over the same IndexedDB restores the session and signs.
    const restored = await tab.evaluate(([g, k]) => (globalThis as unknown as { journey: { restore(a: string, b: string): Promise<Record<string, unknown>> } }).journey.restore(g, k), [stack.gatewayUrl, stack.apiKey] as const);
    expect(restored).toMatchObject({ status: 'ready', publicKey: result.publicKey });
    expect(opensslVerifies(publicKey, Buffer.from(restored.signature as string, 'hex'), new TextEncoder().encode('signed after a reload'))).toBe(true);

    expect(errors).toEqual([]);
  });
});

describe("the gateway's /docs in headless Chromium", () => {
  it('offers every service document on one page: tss-api, admin-api, dashboard-api and the gateway', async () => {
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(`${stack.gatewayUrl}/docs/`);
    const paths = tab.locator('.opblock-summary-path');

    // The first document, tss-api's, renders with its sign-in route.
    await tab.locator('.opblock-summary-path', { hasText: /^\/tss\/v1\/user\/signin$/ }).waitFor();
    const select = tab.locator('.topbar select');
    expect(await select.locator('option').allTextContents()).toEqual(['tss-api', 'admin-api', 'dashboard-api', 'gateway']);

    await select.selectOption({ label: 'admin-api' });
    await tab.locator('.opblock-summary-path', { hasText: /^\/svc_admin\/v1\/customer\/create_customer$/ }).waitFor();
    expect(await paths.allTextContents()).toEqual(expect.arrayContaining(['/svc_admin/v1/user/login', '/svc_admin/v1/ks_node/get_all_ks_nodes']));

    await select.selectOption({ label: 'gateway' });
    await tab.locator('.opblock-summary-path', { hasText: '/docs/specs/' }).waitFor();
    expect(errors).toEqual([]);
    await tab.close();
  });
});
