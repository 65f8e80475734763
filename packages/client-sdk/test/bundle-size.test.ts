import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

/*
 * The entry points' browser bundles, minified as an app's build would make them: the core
 * (`@svc/client-sdk`) loads no chain library, each chain entry only its own, and the sizes stay
 * within budgets measured on this tree. Issue 19 asks for core <= 120 KiB and core + ethereum <=
 * viem + 150 KiB; measured here (2026-11-24): core 171.2 KiB (@noble/curves 67, @svc/crypto 43,
 * the SDK 29 with its session layer and shares sealed at rest, @svc/contract 1.5: only the
 * routes' paths, through @svc/contract/client), core + ethereum (with the EIP-1193 provider)
 * viem + 181.3 KiB. Both goals are not met: the rest is noble's curves and our protocols. The
 * budgets pin today's figures with a little room, so growth is a decision, not an accident.
 */
const CORE_BUDGET_KIB = 175;
const ETHEREUM_OVER_VIEM_BUDGET_KIB = 185;

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

async function bundle(options: BuildOptions): Promise<{ bytes: number; packages: Set<string> }> {
  const result = await build({ ...options, bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, metafile: true, logLevel: 'silent' });
  const packages = new Set(Object.keys(result.metafile.inputs).flatMap((input) => packageOf(input) ?? []));
  return { bytes: result.outputFiles[0]!.contents.length, packages };
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

describe('entry point bundles (browser, minified)', () => {
  it('the core imports no chain library and stays within its budget', async () => {
    const core = await bundle(entry('index.ts'));
    const chainPackages = [...core.packages].filter((p) => (Object.keys(CHAIN_LIBRARIES) as (keyof typeof CHAIN_LIBRARIES)[]).some((f) => isChainLibrary(p, f)));
    expect(chainPackages).toEqual([]);
    expect(core.packages.has('@noble/curves')).toBe(true); // the bundle is the real one, with its dependencies
    expect(core.bytes / KiB).toBeLessThanOrEqual(CORE_BUDGET_KIB);
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

  it('core + ethereum stays within its budget over viem alone', async () => {
    const sdk = await bundle({ stdin: { contents: "export * from './index.ts';\nexport * from './ethereum.ts';", resolveDir: srcDir, loader: 'ts' } });
    const viem = await bundle({ stdin: { contents: viemAsTheSdkUsesIt(), resolveDir: srcDir, loader: 'ts' } });
    expect(viem.packages.has('viem')).toBe(true);
    expect((sdk.bytes - viem.bytes) / KiB).toBeLessThanOrEqual(ETHEREUM_OVER_VIEM_BUDGET_KIB);
  });
});
