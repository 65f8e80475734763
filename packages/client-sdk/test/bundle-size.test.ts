import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

/*
 * The entry points' browser bundles, minified and code-split as an app's build makes them. The
 * wallet loads two parts on first use (src/lazy-module.ts): the ECDSA protocol (at the first
 * presignature fill or secp256k1 signature) and the once-per-device flows (keygen, recovery,
 * heal, export: key dealing and Shamir). What a page downloads up front is the entry's chunk
 * and the chunks it imports statically; issue 19's budgets apply to that: core <= 120 KiB and
 * core + ethereum <= viem + 150 KiB. Measured (2026-11-25): core 99.7 KiB up front, 172 KiB
 * with its lazy parts (@noble/curves ~67, @svc/crypto ~43: ECDSA 33.5 of it lazy); core +
 * ethereum viem + 127.5 KiB (the SDK's @noble/curves 2 beside viem's 1.9 is ~20 of that).
 * The totals are pinned as well, so growth anywhere is a decision, not an accident. The total
 * reached 180.0 KiB by 2026-11-26; heal's lost nodes serving as sources (keyshare-client backup.ts,
 * a wallet that t nodes hold could not be healed) took it to 180.06: budget 181.
 */
const CORE_INITIAL_BUDGET_KIB = 120;
const CORE_TOTAL_BUDGET_KIB = 181;
const ETHEREUM_OVER_VIEM_BUDGET_KIB = 150;

const srcDir = join(import.meta.dirname, '..', 'src');
const KiB = 1024;

/** The packages of each chain family (and what they drag in: hash-wasm and libsodium come through @cosmjs/crypto). */
const CHAIN_LIBRARIES = {
  ethereum: ['viem', 'ox', 'abitype'],
  cosmos: ['@cosmjs/amino', '@cosmjs/crypto', '@cosmjs/encoding', '@cosmjs/math', '@cosmjs/proto-signing', '@cosmjs/utils', 'cosmjs-types', 'hash-wasm', 'libsodium-wrappers-sumo', 'libsodium-sumo'],
  solana: ['@solana/kit'],
};
const isChainLibrary = (pkg: string, family: keyof typeof CHAIN_LIBRARIES) => CHAIN_LIBRARIES[family].includes(pkg) || (family === 'solana' && pkg.startsWith('@solana/'));

/** The npm package a bundled input comes from (the last node_modules segment), or undefined for workspace sources. */
function packageOf(input: string): string | undefined {
  return input.match(/.*node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1];
}

interface Bundle {
  /** What the page loads up front: the entry chunk and the chunks it imports statically. */
  initialBytes: number;
  totalBytes: number;
  /** Source files and npm packages of the up-front chunks, and of the chunks loaded on demand. */
  initialInputs: string[];
  lazyInputs: string[];
  packages: Set<string>;
}

async function bundle(options: BuildOptions): Promise<Bundle> {
  const result = await build({
    ...options,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    splitting: true,
    outdir: 'bundle-size-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const entryChunk = Object.keys(outputs).find((file) => outputs[file]!.entryPoint !== undefined)!;
  const initial = new Set<string>();
  for (const pending = [entryChunk]; pending.length; ) {
    const file = pending.pop()!;
    if (initial.has(file)) continue;
    initial.add(file);
    pending.push(...outputs[file]!.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path));
  }
  const chunks = Object.keys(outputs).filter((file) => !file.endsWith('.map'));
  const sum = (files: string[]) => files.reduce((n, file) => n + outputs[file]!.bytes, 0);
  const inputsOf = (files: string[]) => files.flatMap((file) => Object.keys(outputs[file]!.inputs));
  return {
    initialBytes: sum([...initial]),
    totalBytes: sum(chunks),
    initialInputs: inputsOf([...initial]),
    lazyInputs: inputsOf(chunks.filter((file) => !initial.has(file))),
    packages: new Set(Object.keys(result.metafile.inputs).flatMap((input) => packageOf(input) ?? [])),
  };
}

const entry = (file: string) => ({ entryPoints: [join(srcDir, file)] });

/** What an app using the same viem features as the SDK's Ethereum wallet bundles: the SDK's own viem imports, re-exported. */
function viemAsTheSdkUsesIt(): string {
  const dir = join(srcDir, 'chains', 'ethereum');
  const names = new Map<string, Set<string>>();
  for (const file of readdirSync(dir)) {
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/import \{([^}]*)\} from '(viem[^']*)'/g)) {
      const values = m[1]!.split(',').map((s) => s.trim()).filter((s) => s && !s.startsWith('type '));
      names.set(m[2]!, new Set([...(names.get(m[2]!) ?? []), ...values]));
    }
  }
  return [...names].map(([mod, values]) => `export { ${[...values].join(', ')} } from '${mod}';`).join('\n');
}

/** The modules the wallet loads on first use, by the files that hold them (inputs are relative to this package). */
const LOADED_ON_FIRST_USE = [/crypto\/src\/ecdsa\//, /^src\/threshold\/ecdsa-tss\.ts$/, /^src\/wallet\/(keygen|recovery|heal|export|deal-keys)\.ts$/, /shamir-secret-sharing/];

describe('entry point bundles (browser, minified, code-split)', () => {
  it('the core imports no chain library, defers the ECDSA protocol and the once-per-device flows, and stays within its budgets', async () => {
    const core = await bundle(entry('index.ts'));
    const chainPackages = [...core.packages].filter((p) => (Object.keys(CHAIN_LIBRARIES) as (keyof typeof CHAIN_LIBRARIES)[]).some((f) => isChainLibrary(p, f)));
    expect(chainPackages).toEqual([]);
    expect(core.packages.has('@noble/curves')).toBe(true); // the bundle is the real one, with its dependencies
    for (const pattern of LOADED_ON_FIRST_USE) {
      expect(core.initialInputs.filter((input) => pattern.test(input))).toEqual([]);
      expect(core.lazyInputs.some((input) => pattern.test(input))).toBe(true);
    }
    expect(core.initialBytes / KiB).toBeLessThanOrEqual(CORE_INITIAL_BUDGET_KIB);
    expect(core.totalBytes / KiB).toBeLessThanOrEqual(CORE_TOTAL_BUDGET_KIB);
  });

  it('/cosmos leaves @cosmjs/crypto out, and with it libsodium and hash-wasm (~250 KiB nothing calls)', async () => {
    const { packages } = await bundle(entry('cosmos.ts'));
    expect(packages.has('@cosmjs/amino')).toBe(true);
    expect([...packages].filter((p) => ['@cosmjs/crypto', 'hash-wasm', 'libsodium-wrappers-sumo', 'libsodium-sumo'].includes(p))).toEqual([]);
  });

  it.each([
    ['ethereum.ts', 'ethereum'],
    ['cosmos.ts', 'cosmos'],
    ['solana.ts', 'solana'],
  ] as const)('%s loads its own chain library and no other', async (file, family) => {
    const { packages } = await bundle(entry(file));
    const others = (Object.keys(CHAIN_LIBRARIES) as (keyof typeof CHAIN_LIBRARIES)[]).filter((f) => f !== family);
    expect([...packages].some((p) => isChainLibrary(p, family))).toBe(true);
    expect([...packages].filter((p) => others.some((f) => isChainLibrary(p, f)))).toEqual([]);
  });

  it('core + ethereum loads at most its budget over viem alone up front', async () => {
    const sdk = await bundle({ stdin: { contents: "export * from './index.ts';\nexport * from './ethereum.ts';", resolveDir: srcDir, loader: 'ts' } });
    const viem = await bundle({ stdin: { contents: viemAsTheSdkUsesIt(), resolveDir: srcDir, loader: 'ts' } });
    expect(viem.packages.has('viem')).toBe(true);
    expect((sdk.initialBytes - viem.initialBytes) / KiB).toBeLessThanOrEqual(ETHEREUM_OVER_VIEM_BUDGET_KIB);
  });
});
