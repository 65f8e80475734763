import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const srcDir = join(import.meta.dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

// The SDK is loaded in browsers: no Node built-ins, no Buffer or process in its own code.
describe('browser safety of src', () => {
  it.each(sourceFiles(srcDir).map((f) => [f.slice(srcDir.length + 1), f]))('%s uses no Node-only API', (_name, file) => {
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/from '(node:|fs|path|crypto|http|https|net|os|stream|buffer)['/]/);
    expect(code).not.toMatch(/\bBuffer\b|\bprocess\.|\brequire\(/);
  });

  const bundleForBrowser = (file: string) =>
    build({ entryPoints: [join(srcDir, file)], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });

  it.each(['index.ts', 'ethereum.ts', 'wagmi.ts', 'cosmos.ts', 'solana.ts'])('entry point %s bundles for the browser platform with every dependency resolved', async (file) => {
    const result = await bundleForBrowser(file);
    expect(result.errors).toEqual([]);
  });

  it('bundles every chain method for the browser platform (no Node built-ins needed)', async () => {
    const result = await bundleForBrowser('chain-wallets.ts');
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]!.text).toContain('cosmos_signArbitrary');
  });
});
