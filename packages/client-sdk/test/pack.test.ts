import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The package as an app installs it: built (`pnpm build`: dist, ESM + CJS + .d.ts), packed
 * (`pnpm pack`, which swaps in publishConfig's dist exports), installed with npm into an empty
 * project outside the workspace (so no workspace package or source can leak in), then loaded by
 * plain Node as ESM and as CJS, and type-checked by a strict consumer with
 * exactOptionalPropertyTypes and skipLibCheck off (the SDK's declarations are checked too).
 */
const pkgDir = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> };
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const ESM_SCRIPT = `
import { SvcWallet, SvcError, MemoryShareStorage } from '@svc/client-sdk';
import { EthereumWallet, ethereumAddressOf } from '@svc/client-sdk/ethereum';
const wallet = new SvcWallet({ gatewayUrl: 'https://wallet.example.com', apiKey: 'k', storage: new MemoryShareStorage() });
// The generator G, i.e. the public key of private key 1, compressed.
const G = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
const address = ethereumAddressOf(Uint8Array.from(G.match(/../g), (b) => parseInt(b, 16)));
console.log(JSON.stringify({ wallet: wallet.constructor.name, error: new SvcError('TIMEOUT', 'late', 0).code, eth: typeof EthereumWallet, address }));
`;

const CJS_SCRIPT = `
const { SvcWallet, isSvcError } = require('@svc/client-sdk');
const { ethereumWallet } = require('@svc/client-sdk/ethereum');
console.log(JSON.stringify({ wallet: typeof SvcWallet, isSvcError: isSvcError(new Error('x')), ethereumWallet: typeof ethereumWallet }));
`;

const CONSUMER_TS = `
import { SvcWallet, IndexedDbShareStorage, isSvcError, type SvcWalletOptions, type SignInOutcome } from '@svc/client-sdk';
import { ethereumWallet, type EthereumWallet } from '@svc/client-sdk/ethereum';

const options: SvcWalletOptions = { gatewayUrl: 'https://wallet.example.com', apiKey: 'key', storage: new IndexedDbShareStorage() };
const wallet = new SvcWallet(options);

export async function signHello(email: string, code: string): Promise<string> {
  const out: SignInOutcome = await wallet.signInWithEmail(email, code);
  if (out.status === 'needs_keygen') await wallet.keygen();
  if (out.status === 'needs_recovery') await wallet.recover();
  const ethereum: EthereumWallet = await ethereumWallet(wallet);
  try {
    return await ethereum.personal_sign('hello');
  } catch (err) {
    if (isSvcError(err)) return err.code;
    throw err;
  }
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext',
    strict: true, exactOptionalPropertyTypes: true, skipLibCheck: false, noEmit: true, types: [],
  },
  files: ['consumer.ts', 'quickstart.mts'],
};

describe('the packed package, installed outside the workspace', () => {
  let work: string;
  let app: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-sdk-pack-'));
    app = join(work, 'app');
    mkdirSync(app);
    run('pnpm', ['run', 'build'], pkgDir);
    run('pnpm', ['pack', '--pack-destination', work], pkgDir);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    // viem: the peer the /ethereum entry needs; the core needs none.
    run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '--loglevel=error', join(work, tarball), `viem@${pkg.peerDependencies.viem}`], app);
  }, 240_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('ships dist and the README, no sources or tests, and no private workspace package', () => {
    const installed = join(app, 'node_modules', '@svc', 'client-sdk');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json']);
    const runtime = { ...manifest.dependencies, ...manifest.peerDependencies };
    expect(Object.keys(runtime).filter((name) => name.startsWith('@svc/'))).toEqual([]);
    expect(readdirSync(join(app, 'node_modules', '@svc'))).toEqual(['client-sdk']);
    expect(readdirSync(join(app, 'node_modules'))).not.toContain('express');
  });

  it('loads in Node as ESM', () => {
    writeFileSync(join(app, 'esm.mjs'), ESM_SCRIPT);
    const out = JSON.parse(run('node', ['esm.mjs'], app)) as Record<string, string>;
    expect(out).toEqual({ wallet: 'SvcWallet', error: 'TIMEOUT', eth: 'function', address: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf' });
  });

  it('loads in Node with require (CJS)', () => {
    writeFileSync(join(app, 'cjs.cjs'), CJS_SCRIPT);
    expect(JSON.parse(run('node', ['cjs.cjs'], app))).toEqual({ wallet: 'function', isSvcError: false, ethereumWallet: 'function' });
  });

  it('type-checks a consumer, and the README\'s quickstart as written, with strict and exactOptionalPropertyTypes', () => {
    writeFileSync(join(app, 'consumer.ts'), CONSUMER_TS);
    const readme = readFileSync(join(app, 'node_modules', '@svc', 'client-sdk', 'README.md'), 'utf8');
    const quickstart = readme.match(/## Quickstart\n\n```ts\n([\s\S]*?)```/)![1]!;
    writeFileSync(join(app, 'quickstart.mts'), `declare const email: string;\ndeclare const code: string;\n${quickstart}`);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const check = spawnSync('node', [tsc, '-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
