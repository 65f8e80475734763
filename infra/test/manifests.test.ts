/**
 * Renders every overlay with the real kustomize and checks the result: each object against
 * the Kubernetes OpenAPI schemas (kubernetes-models), then the deployment rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { K8S_DIR, idOf, render, type K8sObject } from '../scripts/kustomize.js';
import {
  checkNetworkPolicies,
  checkNoInlineSecrets,
  checkProbesAndResources,
  checkReferences,
  checkSecurityContexts,
  podTemplates,
  referencedSecrets,
} from './manifest-rules.js';
import { findUnknownFields, validateWithModels } from './schema-validation.js';

const OVERLAYS = ['overlays/dev', 'overlays/prod'] as const;
const rendered = new Map<string, K8sObject[]>(OVERLAYS.map((o) => [o, render(o)]));
const objectsOf = (overlay: string) => rendered.get(overlay)!;
const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

describe.each(OVERLAYS)('%s', (overlay) => {
  const objects = objectsOf(overlay);

  test('every object is valid against the Kubernetes OpenAPI schemas', async () => {
    expect(await validateWithModels(objects)).toEqual([]);
  });

  test('no object has a field the schemas do not define', async () => {
    expect(await findUnknownFields(objects)).toEqual([]);
  }, 60_000);

  test('no inline secrets: no Secret objects, secret-like variables only from secretKeyRef', () => {
    expect(checkNoInlineSecrets(objects)).toEqual([]);
  });

  test('every container has resources; every serving container probes /health and /ready', () => {
    expect(checkProbesAndResources(objects)).toEqual([]);
  });

  test('every pod runs non-root with a read-only root, no capabilities, seccomp RuntimeDefault', () => {
    expect(checkSecurityContexts(objects)).toEqual([]);
  });

  test('NetworkPolicies: default deny, and only the gateway reaches the internal apps', () => {
    expect(checkNetworkPolicies(objects)).toEqual([]);
  });

  test('references resolve: ConfigMaps, Service selectors, Ingress backends, HPA target', () => {
    expect(checkReferences(objects)).toEqual([]);
  });

  test('one Deployment, Service and PodDisruptionBudget per app; the gateway behind an Ingress; an HPA for tss-api', () => {
    for (const app of ['gateway', 'tss-api', 'admin-api', 'dashboard-api']) {
      expect(find(objects, 'Deployment', app)).toBeDefined();
      expect(find(objects, 'Service', app)).toBeDefined();
      expect(find(objects, 'PodDisruptionBudget', app)).toBeDefined();
    }
    expect(find(objects, 'Ingress', 'gateway')).toBeDefined();
    expect(find(objects, 'HorizontalPodAutoscaler', 'tss-api')).toBeDefined();
  });

  test('three key share nodes: each a StatefulSet with its own database Secret, Service and Ingress', () => {
    const nodes = objects.filter((o) => o.kind === 'StatefulSet');
    expect(nodes.map((o) => o.metadata.name).sort()).toEqual(['keyshare-node-1', 'keyshare-node-2', 'keyshare-node-3']);
    const dbSecrets = podTemplates(nodes).map((p) => {
      const env = (p.spec.containers as { env: { name: string; valueFrom?: { secretKeyRef?: { name: string } } }[] }[])[0]!.env;
      return env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef?.name;
    });
    expect(dbSecrets).toEqual(['keyshare-node-1', 'keyshare-node-2', 'keyshare-node-3']);
    for (let n = 1; n <= 3; n++) {
      expect(find(objects, 'Service', `keyshare-node-${n}`)).toBeDefined();
      expect(find(objects, 'Ingress', `keyshare-node-${n}`)).toBeDefined();
    }
    // tss-api is told where the nodes are by their public URLs: it hands them to clients
    // (keyshare_node_meta), who reach the nodes through their Ingress hosts.
    const nodesVar = String((find(objects, 'ConfigMap', 'tss-api-config')?.data as Record<string, string>).KEYSHARE_NODES);
    const entries = Object.fromEntries(nodesVar.split(',').map((e) => [e.split('=')[0]!, e.split('=')[1]!]));
    expect(Object.keys(entries).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (let n = 1; n <= 3; n++) {
      const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith(`keyshare-node-config-${n}-`))?.data as Record<string, string>;
      expect(entries[`node-${n}`]).toBe(config.PUBLIC_URL);
    }
  });

  test('URLs agree: nodes trust the email issuer of tss-api, and each node PUBLIC_URL is its Ingress host', () => {
    const tss = find(objects, 'ConfigMap', 'tss-api-config')?.data as Record<string, string>;
    const gatewayHost = (find(objects, 'Ingress', 'gateway')?.spec as { rules: { host: string }[] }).rules[0]!.host;
    expect(new URL(tss.PUBLIC_URL!).host).toBe(gatewayHost);
    for (let n = 1; n <= 3; n++) {
      const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith(`keyshare-node-config-${n}-`))?.data as Record<string, string>;
      expect(config.KS_NODE_NAME).toBe(`node-${n}`);
      expect(config.EMAIL_ID_TOKEN_ISSUER).toBe(`${tss.PUBLIC_URL}/tss/v1`);
      const nodeHost = (find(objects, 'Ingress', `keyshare-node-${n}`)?.spec as { rules: { host: string }[] }).rules[0]!.host;
      expect(new URL(config.PUBLIC_URL!).host).toBe(nodeHost);
    }
  });

  test('migrations run in a Job and init containers, never in serving replicas', () => {
    expect(find(objects, 'Job', 'migrate-main')).toBeDefined();
    const common = find(objects, 'ConfigMap', 'svc-common')?.data as Record<string, string>;
    expect(common.MIGRATE_ON_START).toBe('false');
    for (const p of podTemplates(objects).filter((x) => x.owner.kind === 'StatefulSet')) {
      expect((p.spec.initContainers as { args: string[] }[])[0]!.args).toEqual(['keyshare-node']);
    }
  });

  test('every referenced Secret is documented in infra/k8s/README.md', () => {
    const readme = readFileSync(join(K8S_DIR, 'README.md'), 'utf8');
    const missing = [...referencedSecrets(objects)].filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});

test('prod pins every image to a registry and a version (never latest)', () => {
  const images = podTemplates(objectsOf('overlays/prod')).flatMap((p) =>
    [...((p.spec.initContainers as { image: string }[]) ?? []), ...(p.spec.containers as { image: string }[])].map((c) => c.image),
  );
  for (const image of images) expect(image).toMatch(/^[a-z0-9.-]+\.[a-z]+\/svc\/[a-z-]+:\d+\.\d+\.\d+$/);
});

test('each key share node folder renders on its own (separately operated releases)', () => {
  for (let n = 1; n <= 3; n++) {
    const objects = render(`keyshare-node/node-${n}`);
    expect(objects.map(idOf).sort()).toEqual(
      [`ConfigMap/keyshare-node-config-${n}`, `Ingress/keyshare-node-${n}`, `Service/keyshare-node-${n}`, `Service/keyshare-node-headless-${n}`, `StatefulSet/keyshare-node-${n}`]
        .map((id) => (id.startsWith('ConfigMap/') ? expect.stringMatching(new RegExp(`^${id}-[a-z0-9]+$`)) : id)) as unknown as string[],
    );
  }
});
