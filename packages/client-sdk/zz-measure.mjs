import { build } from 'esbuild';
import { join } from 'node:path';
const src = join(process.cwd(), 'src');
const pkgOf = (p) => { const m = p.match(/.*node_modules\/((?:@[^/]+\/)?[^/]+)\//); return m ? m[1] : p.startsWith('src/') ? 'sdk' : p.replace(/\/src\/.*/, ''); };
async function size(opts, detail) {
  const r = await build({ bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, logLevel: 'silent', metafile: true, ...opts });
  const out = Object.values(r.metafile.outputs)[0];
  const by = {};
  for (const [p, i] of Object.entries(out.inputs)) by[pkgOf(p)] = (by[pkgOf(p)] ?? 0) + i.bytesInOutput;
  return [(r.outputFiles[0].contents.length / 1024).toFixed(1) + ' KiB', detail ? Object.entries(by).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${(v / 1024).toFixed(1)}`).join(' ') : ''];
}
for (const [name, o, d] of [
  ['core', { entryPoints: [join(src, 'index.ts')] }, true],
  ['core+eth', { stdin: { contents: `export * from './index.ts'; export * from './ethereum.ts';`, resolveDir: src, loader: 'ts' } }, true],
  ['viem-used', { stdin: { contents: `export { bytesToHex, hashMessage, hashTypedData, keccak256, serializeTransaction, createWalletClient, createPublicClient, http } from 'viem'; export { toAccount, publicKeyToAddress } from 'viem/accounts';`, resolveDir: src } }],
  ['viem-all', { stdin: { contents: `export * from 'viem'; export * from 'viem/accounts';`, resolveDir: src } }],
  ['all', { entryPoints: [join(src, 'chain-wallets.ts')] }],
]) console.log(name, ...(await size(o, d)));
