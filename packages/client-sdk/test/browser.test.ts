import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { build } from 'esbuild';
import { chromium, type BrowserContext } from 'playwright-core';
import { verifyMessage } from 'viem';
import { opensslVerifies } from './helpers/svm-verify.js';
import { startStack, type Stack } from './support/stack.js';

/*
 * The SDK bundle in a real browser: Debian's Chromium (apt-get install chromium; .ci/run does
 * it) driven by playwright-core, a page served from 127.0.0.1 talking to the in-process stack
 * (the gateway and the key share nodes answer CORS) with the browser's fetch, WebCrypto and
 * IndexedDB.
 */
const CHROMIUM = '/usr/bin/chromium';

let stack: Stack;
let page: Server;
let pageUrl: string;
let context: BrowserContext;
let userDataDir: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (see .ci/run)`);
  const [s, bundle] = await Promise.all([
    startStack(),
    build({ entryPoints: [join(import.meta.dirname, 'browser/page-entry.ts')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' }),
  ]);
  stack = s;
  const script = bundle.outputFiles[0]!.text;
  page = createServer((req, res) => {
    if (req.url === '/sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><meta charset="utf-8"><title>svc wallet</title><script type="module" src="/sdk.js"></script>');
    }
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  userDataDir = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await context?.close();
  await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
  await stack?.stop();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

describe('the SDK bundle in headless Chromium', () => {
  it('signs in with an email code, runs keygen and returns an Ed25519 and an ECDSA signature that verify', async () => {
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(pageUrl);
    await tab.waitForFunction(() => 'journey' in globalThis);
    const email = `browser-${randomUUID().slice(0, 8)}@example.com`;

    await tab.evaluate(([g, k, e]) => (globalThis as unknown as { journey: { start(a: string, b: string, c: string): Promise<void> } }).journey.start(g, k, e), [stack.gatewayUrl, stack.apiKey, email] as const);
    const code = await stack.emailCode(email);
    const result = await tab.evaluate(
      ([e, c]) => (globalThis as unknown as { journey: { finish(a: string, b: string): Promise<Record<string, unknown>> } }).journey.finish(e, c),
      [email, code] as const,
    );

    expect(result).toMatchObject({ status: 'needs_keygen', keygen: true });
    const signature = Buffer.from(result.signature as string, 'hex');
    const publicKey = Buffer.from(result.publicKey as string, 'hex');
    expect(opensslVerifies(publicKey, signature, new TextEncoder().encode('signed in Chromium'))).toBe(true);
    // ECDSA computed in the page (triples, presign, sign against tss-api), verified by viem here.
    expect(result.ecdsa).toMatch(/^0x[0-9a-f]{130}$/);
    const address = result.ethereumAddress as `0x${string}`;
    expect(await verifyMessage({ address, message: 'signed in Chromium', signature: result.ecdsa as `0x${string}` })).toBe(true);
    // The client share landed in the browser's IndexedDB.
    const stored = await tab.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('svc-wallet-browser-test');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const names = Array.from(db.objectStoreNames);
            const tx = db.transaction(names, 'readonly');
            const count = tx.objectStore(names[0]!).count();
            count.onsuccess = () => resolve(count.result);
            count.onerror = () => reject(count.error);
          };
        }),
    );
    expect(stored).toBe(2);
    expect(errors).toEqual([]);
  });
});
