import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { packagedKubectl } from './packaged-kubectl.js';

export const K8S_DIR = join(import.meta.dirname, '..', 'k8s');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

// The real kustomize: the kubectl that `pnpm install` brings (its built-in `kubectl kustomize`,
// one pinned version on every machine), else a standalone `kustomize build` or a kubectl on PATH
// where that build cannot run (not linux-x64).
function renderer(): { command: string; args: string[] } {
  const packaged = packagedKubectl();
  if (packaged) return { command: packaged, args: ['kustomize'] };
  for (const [command, args, versionArgs] of [
    ['kustomize', ['build'], ['version']],
    ['kubectl', ['kustomize'], ['version', '--client']],
  ] as const) {
    const probe = spawnSync(command, [...versionArgs], { encoding: 'utf8' });
    if (probe.status === 0) return { command, args: [...args] };
  }
  throw new Error(`the packaged kubectl runs on linux-x64 only, and neither \`kustomize\` nor \`kubectl\` is on PATH (${process.platform}/${process.arch}): install one to render infra/k8s`);
}

/** Renders a kustomization directory (relative to infra/k8s) into its objects. */
export function render(dir: string): K8sObject[] {
  const { command, args } = renderer();
  const result = spawnSync(command, [...args, join(K8S_DIR, dir)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} ${dir} failed:\n${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

export function idOf(o: K8sObject): string {
  return `${o.kind}/${o.metadata.name}`;
}
