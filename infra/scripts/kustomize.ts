import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const K8S_DIR = join(import.meta.dirname, '..', 'k8s');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

// The real kustomize: standalone `kustomize build`, else the one built into kubectl
// (`kubectl kustomize`, on this project's machines and on GitHub's runners).
function renderer(): { command: string; args: string[] } {
  for (const [command, args, versionArgs] of [
    ['kustomize', ['build'], ['version']],
    ['kubectl', ['kustomize'], ['version', '--client']],
  ] as const) {
    const probe = spawnSync(command, [...versionArgs], { encoding: 'utf8' });
    if (probe.status === 0) return { command, args: [...args] };
  }
  throw new Error('neither `kustomize` nor `kubectl` is on PATH: install one (e.g. apt-get install kubectl) to render infra/k8s');
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
