/**
 * The reading of the manifests that test:images runs containers from (scripts/images/pod-plan.ts),
 * checked on the rendered dev overlay without starting anything.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render, type K8sObject } from '../scripts/kustomize.js';
import { planManifests, type Secrets } from '../scripts/images/pod-plan.js';
import { documentedSecrets } from '../scripts/images/secrets-doc.js';

const readme = readFileSync(join(import.meta.dirname, '..', 'k8s', 'README.md'), 'utf8');

function secretsFor(objects: K8sObject[]): Secrets {
  // Every Secret any container refers to, each key set to "<secret>/<key>".
  const secrets: Secrets = {};
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const ref = o.secretKeyRef as { name: string; key: string } | undefined;
    if (ref) (secrets[ref.name] ??= {})[ref.key] = `${ref.name}/${ref.key}`;
    const sr = o.secretRef as { name: string } | undefined;
    if (sr) secrets[sr.name] ??= { FROM_SECRET_REF: sr.name };
    Object.values(o).forEach(walk);
  };
  walk(objects);
  return secrets;
}

describe('planManifests on overlays/dev', () => {
  const objects = render('overlays/dev');
  const secrets = secretsFor(objects);
  const plan = planManifests(objects, secrets);
  const pod = (name: string) => plan.pods.find((p) => p.name === name)!;

  test('finds every workload with its init containers', () => {
    expect(plan.pods.map((p) => p.name).sort()).toEqual(
      ['admin-api', 'dashboard-api', 'gateway', 'keyshare-node-1', 'keyshare-node-2', 'keyshare-node-3', 'migrate-main', 'tss-api'].sort(),
    );
    expect(pod('keyshare-node-2').initContainers.map((c) => [c.app, c.args])).toEqual([['migrate', ['keyshare-node']]]);
    expect(pod('migrate-main').containers[0]).toMatchObject({ app: 'migrate', args: ['main'], user: 10001, readOnlyRoot: true });
  });

  test('resolves the environment with Kubernetes precedence: ConfigMaps, then secretRefs, then env', () => {
    const tss = pod('tss-api').containers[0]!;
    expect(tss.env).toMatchObject({ NODE_ENV: 'production', LOG_LEVEL: 'debug', PORT: '4210', PUBLIC_URL: 'https://api.dev.wallet.example.com' });
    expect(tss.env.DATABASE_URL).toBe('svc-main-db/DATABASE_URL');
    // Each node reads its own Secret (the nameSuffix does not rename Secrets; a patch does).
    expect(pod('keyshare-node-3').containers[0]!.env.DATABASE_URL).toBe('keyshare-node-3/DATABASE_URL');
    expect(pod('keyshare-node-3').initContainers[0]!.env.DATABASE_URL).toBe('keyshare-node-3/DATABASE_URL');
  });

  test('reads user, read-only root, emptyDirs, probes, preStop and the grace period', () => {
    const gateway = pod('gateway');
    expect(gateway.terminationGracePeriodSeconds).toBe(30);
    expect(gateway.containers[0]).toMatchObject({
      user: 10001,
      group: 10001,
      runAsNonRoot: true,
      readOnlyRoot: true,
      emptyDirs: [{ path: '/tmp', bytes: 64 * 1024 * 1024 }],
      port: 4200,
      probes: { startup: '/health', liveness: '/health', readiness: '/ready' },
      preStop: ['sleep', '5'],
    });
  });

  test('maps Services and Ingress hosts to workloads', () => {
    expect(plan.services).toMatchObject({ 'tss-api': 'tss-api', 'keyshare-node-1': 'keyshare-node-1', gateway: 'gateway' });
    expect(plan.ingressHosts['api.dev.wallet.example.com']).toBe('gateway');
    expect(plan.ingressHosts['node-2.keyshare.wallet.example.com']).toBe('keyshare-node-2');
  });

  test('a required Secret that is missing is an error, an optional one is skipped', () => {
    const without = (name: string) => Object.fromEntries(Object.entries(secrets).filter(([n]) => n !== name));
    expect(() => planManifests(objects, without('svc-jwt'))).toThrow(/svc-jwt\/JWT_SECRET/);
    expect(() => planManifests(objects, without('svc-smtp'))).toThrow(/needs Secret svc-smtp/);
    const plan = planManifests(objects, without('tss-api-secrets'));
    expect(plan.referencedSecrets.get('tss-api-secrets')).toBe(true);
    expect(plan.referencedSecrets.get('svc-jwt')).toBe(false);
  });
});

describe('Secrets documented in infra/k8s/README.md', () => {
  const documented = documentedSecrets(readme);

  test('the table is read: names and keys', () => {
    expect(documented.get('svc-jwt')).toEqual(new Set(['JWT_SECRET']));
    expect(documented.get('keyshare-node-2')).toEqual(new Set(['DATABASE_URL', 'SHARE_ENCRYPTION_KEYS', 'KS_NODE_IDENTITY_KEY']));
  });

  test.each(['overlays/dev', 'overlays/prod'])('every Secret and key %s reads is documented', (overlay) => {
    const objects = render(overlay);
    const plan = planManifests(objects, secretsFor(objects));
    const undocumented = [...plan.referencedSecrets.keys()].filter((name) => !documented.has(name));
    expect(undocumented).toEqual([]);
    const keys = Object.entries(secretsFor(objects)).flatMap(([name, values]) =>
      Object.keys(values).filter((k) => k !== 'FROM_SECRET_REF' && !documented.get(name)?.has(k)).map((k) => `${name}/${k}`),
    );
    expect(keys).toEqual([]);
  });
});
