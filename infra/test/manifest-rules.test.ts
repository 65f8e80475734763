/** The checks of manifests.test.ts must catch what they claim to: each broken on purpose. */
import { render, type K8sObject } from '../scripts/kustomize.js';
import {
  checkNetworkPolicies,
  checkNoInlineSecrets,
  checkProbesAndResources,
  checkSecurityContexts,
} from './manifest-rules.js';
import { findUnknownFields, validateWithModels } from './schema-validation.js';

const base = render('overlays/prod');
const clone = (): K8sObject[] => structuredClone(base);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function container(objects: K8sObject[], kind: string, name: string): any {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name) as any;
  return o.spec.template.spec.containers[0];
}

test('an inline secret value, a secret in a ConfigMap and a Secret object are all reported', () => {
  const objects = clone();
  container(objects, 'Deployment', 'tss-api').env.push({ name: 'JWT_SECRET', value: 'x'.repeat(40) });
  const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'gateway-config')!;
  (cm.data as Record<string, string>).DATABASE_URL = 'postgresql://svc:hunter2@db:5432/svc';
  objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'oops' }, stringData: { JWT_SECRET: 'x' } });
  const problems = checkNoInlineSecrets(objects);
  expect(problems).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/Secret\/oops/),
      expect.stringMatching(/gateway-config: DATABASE_URL is a secret/),
      expect.stringMatching(/gateway-config: DATABASE_URL embeds a password/),
      expect.stringMatching(/tss-api container tss-api env JWT_SECRET: must come from a Secret/),
    ]),
  );
});

test('a missing probe, a wrong probe path and missing limits are reported', () => {
  const objects = clone();
  delete container(objects, 'Deployment', 'admin-api').readinessProbe;
  container(objects, 'Deployment', 'gateway').livenessProbe.httpGet.path = '/';
  delete container(objects, 'StatefulSet', 'keyshare-node-2').resources.limits;
  expect(checkProbesAndResources(objects).sort()).toEqual([
    'Deployment/admin-api container admin-api: readinessProbe must GET /ready',
    'Deployment/gateway container gateway: livenessProbe must GET /health',
    'StatefulSet/keyshare-node-2 container keyshare-node: resources.limits.cpu missing',
    'StatefulSet/keyshare-node-2 container keyshare-node: resources.limits.memory missing',
  ]);
});

test('root, a writable root filesystem and kept capabilities are reported', () => {
  const objects = clone();
  const c = container(objects, 'Deployment', 'dashboard-api');
  c.securityContext = { runAsUser: 0, runAsNonRoot: false };
  expect(checkSecurityContexts(objects)).toEqual(
    expect.arrayContaining([
      'Deployment/dashboard-api container dashboard-api: runs as root',
      'Deployment/dashboard-api container dashboard-api: readOnlyRootFilesystem must be true',
      'Deployment/dashboard-api container dashboard-api: capabilities must drop ALL',
    ]),
  );
});

test('an internal app opened to another pod or to anywhere, and a selector matching nothing, are reported', () => {
  const objects = clone();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const policy = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'admin-api') as any;
  policy.spec.ingress[0].from.push({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'tss-api' } } });
  policy.spec.ingress.push({ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'no-such-app' } } }] });
  const problems = checkNetworkPolicies(objects);
  expect(problems).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^admin-api: NetworkPolicy\/admin-api lets .*tss-api.* in; only gateway may reach it$/),
      expect.stringMatching(/NetworkPolicy\/admin-api: peer podSelector .*no-such-app.* matches no pod/),
    ]),
  );
  const withoutDeny = clone().filter((o) => !(o.kind === 'NetworkPolicy' && o.metadata.name === 'default-deny'));
  expect(checkNetworkPolicies(withoutDeny)).toContain('no default-deny NetworkPolicy (empty podSelector, Ingress and Egress, no rules)');
});

test('schema validation rejects a wrong type, and the unknown-field check a misspelt field', async () => {
  const objects = clone();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'gateway') as any).spec.replicas = 'two';
  container(objects, 'Deployment', 'tss-api').livenessProbee = { httpGet: { path: '/health', port: 'http' } };
  expect(await validateWithModels(objects)).toEqual([expect.stringMatching(/^Deployment\/gateway: .*replicas must be integer/)]);
  const unknown = await findUnknownFields(objects);
  expect(unknown).toEqual(expect.arrayContaining([expect.stringMatching(/^Deployment\/tss-api: .*livenessProbee.*does not exist in type 'IContainer'/)]));
}, 60_000);
