/**
 * The Secrets infra/k8s/README.md documents, read from its table: a row's first cell names the
 * Secret(s) in backticks, its second the keys (upper-case names in backticks).
 */
export function documentedSecrets(readme: string): Map<string, Set<string>> {
  const documented = new Map<string, Set<string>>();
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[1]!.startsWith('`')) continue;
    const keys = new Set([...cells[2]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
    for (const m of cells[1]!.matchAll(/`([a-z0-9-]+)`/g)) documented.set(m[1]!, keys);
  }
  return documented;
}
