/**
 * The deployment rules checked on every rendered overlay. Each returns the problems found
 * (empty = fine), so a test can show all of them at once and the rules themselves can be
 * tested on objects that break them.
 */
import { idOf, type K8sObject } from '../scripts/kustomize.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/** Variables that carry credentials: they may only come from a Secret. */
export const SECRET_NAME = /(SECRET|PASS|PASSWORD|PRIVATE_KEY|BOT_TOKEN|IDENTITY_KEY|ENCRYPTION_KEYS|API_KEY|DATABASE_URL)$/;
/** A value that embeds a password (scheme://user:password@host). */
const CREDENTIAL_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

interface PodOwner {
  owner: K8sObject;
  template: Json;
  labels: Record<string, string>;
  spec: Json;
}

export function podTemplates(objects: K8sObject[]): PodOwner[] {
  const owners: PodOwner[] = [];
  for (const o of objects) {
    if (!['Deployment', 'StatefulSet', 'Job', 'DaemonSet'].includes(o.kind)) continue;
    const template = obj(obj(o.spec).template);
    const labels = obj(obj(template.metadata).labels) as Record<string, string>;
    owners.push({ owner: o, template, labels, spec: obj(template.spec) });
  }
  return owners;
}

const serving = (p: PodOwner) => p.owner.kind !== 'Job';

function containersOf(p: PodOwner): { name: string; c: Json; init: boolean }[] {
  return [
    ...arr(p.spec.initContainers).map((c) => ({ name: String(c.name), c, init: true })),
    ...arr(p.spec.containers).map((c) => ({ name: String(c.name), c, init: false })),
  ];
}

export function checkNoInlineSecrets(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const o of objects) {
    if (o.kind === 'Secret') {
      const placeholder = o.metadata.annotations?.['svc-wallet/placeholder'] === 'true';
      const hasData = Object.keys(obj(o.data)).length + Object.keys(obj(o.stringData)).length > 0;
      if (!placeholder || hasData) problems.push(`${idOf(o)}: Secret objects with values must not be committed`);
    }
    if (o.kind === 'ConfigMap') {
      for (const [key, value] of Object.entries(obj(o.data))) {
        if (SECRET_NAME.test(key)) problems.push(`${idOf(o)}: ${key} is a secret and belongs in a Secret`);
        if (typeof value === 'string' && CREDENTIAL_URL.test(value)) problems.push(`${idOf(o)}: ${key} embeds a password`);
      }
    }
  }
  for (const p of podTemplates(objects)) {
    for (const { name, c } of containersOf(p)) {
      for (const e of arr(c.env)) {
        const where = `${idOf(p.owner)} container ${name} env ${String(e.name)}`;
        if (typeof e.value === 'string' && CREDENTIAL_URL.test(e.value)) problems.push(`${where}: value embeds a password`);
        if (SECRET_NAME.test(String(e.name)) && !obj(obj(e.valueFrom).secretKeyRef).name) {
          problems.push(`${where}: must come from a Secret (valueFrom.secretKeyRef)`);
        }
      }
    }
  }
  return problems;
}

export function checkProbesAndResources(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const p of podTemplates(objects)) {
    for (const { name, c, init } of containersOf(p)) {
      const where = `${idOf(p.owner)} container ${name}`;
      const resources = obj(c.resources);
      for (const kind of ['requests', 'limits']) {
        for (const r of ['cpu', 'memory']) if (!obj(resources[kind])[r]) problems.push(`${where}: resources.${kind}.${r} missing`);
      }
      if (init || !serving(p)) continue;
      const path = (probe: string) => obj(obj(c[probe]).httpGet).path;
      if (path('livenessProbe') !== '/health') problems.push(`${where}: livenessProbe must GET /health`);
      if (path('readinessProbe') !== '/ready') problems.push(`${where}: readinessProbe must GET /ready`);
    }
  }
  return problems;
}

export function checkSecurityContexts(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const p of podTemplates(objects)) {
    const pod = obj(p.spec.securityContext);
    const id = idOf(p.owner);
    if (pod.runAsNonRoot !== true) problems.push(`${id}: pod runAsNonRoot must be true`);
    if (pod.runAsUser !== 10001) problems.push(`${id}: pod runAsUser must be 10001 (the image's user)`);
    if (obj(pod.seccompProfile).type !== 'RuntimeDefault') problems.push(`${id}: seccompProfile must be RuntimeDefault`);
    if (p.spec.automountServiceAccountToken !== false) problems.push(`${id}: automountServiceAccountToken must be false`);
    for (const { name, c } of containersOf(p)) {
      const sc = obj(c.securityContext);
      const where = `${id} container ${name}`;
      if (sc.runAsNonRoot === false || (sc.runAsUser !== undefined && sc.runAsUser === 0)) problems.push(`${where}: runs as root`);
      if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation must be false`);
      if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem must be true`);
      const drop = arr(obj(sc.capabilities).drop) as unknown[];
      if (!drop.includes('ALL')) problems.push(`${where}: capabilities must drop ALL`);
      if (arr(obj(sc.capabilities).add).length > 0) problems.push(`${where}: adds capabilities`);
    }
  }
  return problems;
}

function matches(selector: Json, labels: Record<string, string>): boolean {
  const matchLabels = obj(selector.matchLabels) as Record<string, string>;
  if (!Object.entries(matchLabels).every(([k, v]) => labels[k] === v)) return false;
  return arr(selector.matchExpressions).every((e) => {
    const key = String(e.key);
    const values = (Array.isArray(e.values) ? e.values : []) as string[];
    switch (e.operator) {
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
      case 'In':
        return values.includes(labels[key] ?? '');
      case 'NotIn':
        return !values.includes(labels[key] ?? '');
      default:
        return false;
    }
  });
}

/** Pod templates a label selector picks (same namespace). */
export function selectedPods(objects: K8sObject[], selector: Json): PodOwner[] {
  return podTemplates(objects).filter((p) => matches(selector, p.labels));
}

export const INTERNAL_APPS = ['tss-api', 'admin-api', 'dashboard-api'];

export function checkNetworkPolicies(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const specOf = (o: K8sObject) => obj(o.spec);
  const types = (o: K8sObject) => arr(specOf(o).policyTypes) as unknown as string[];
  const denyAll = policies.find(
    (o) => Object.keys(obj(specOf(o).podSelector)).length === 0 && types(o).includes('Ingress') && types(o).includes('Egress')
      && arr(specOf(o).ingress).length === 0 && arr(specOf(o).egress).length === 0,
  );
  if (!denyAll) problems.push('no default-deny NetworkPolicy (empty podSelector, Ingress and Egress, no rules)');

  for (const policy of policies) {
    const spec = specOf(policy);
    if (Object.keys(obj(spec.podSelector)).length > 0 && selectedPods(objects, obj(spec.podSelector)).length === 0) {
      problems.push(`${idOf(policy)}: podSelector matches no pod`);
    }
    for (const rule of [...arr(spec.ingress).flatMap((r) => arr(r.from)), ...arr(spec.egress).flatMap((r) => arr(r.to))]) {
      if (rule.podSelector && !rule.namespaceSelector && selectedPods(objects, obj(rule.podSelector)).length === 0) {
        problems.push(`${idOf(policy)}: peer podSelector ${JSON.stringify(rule.podSelector)} matches no pod`);
      }
    }
  }

  // Who may reach each internal app: the union of the ingress peers of every policy selecting it.
  for (const p of podTemplates(objects).filter(serving)) {
    const name = p.labels['app.kubernetes.io/name'] ?? idOf(p.owner);
    const applying = policies.filter((o) => types(o).includes('Ingress') && matches(obj(specOf(o).podSelector), p.labels));
    const ownPolicy = applying.some((o) => arr(specOf(o).ingress).length > 0 && o.metadata.name !== 'allow-metrics-scrape');
    if (!ownPolicy) problems.push(`${name}: no NetworkPolicy says who may reach it`);
    if (!INTERNAL_APPS.includes(name)) continue;
    for (const o of applying) {
      for (const rule of arr(specOf(o).ingress)) {
        const ports = arr(rule.ports).map((x) => x.port);
        const appPort = arr(obj(arr(p.spec.containers)[0]).ports)[0]?.containerPort;
        if (ports.length > 0 && !ports.includes(appPort)) continue; // does not open the app's port
        for (const peer of arr(rule.from)) {
          if (peer.namespaceSelector && o.metadata.name === 'allow-metrics-scrape') continue;
          const peers = peer.podSelector && !peer.namespaceSelector ? selectedPods(objects, obj(peer.podSelector)) : [];
          const names = peers.map((x) => x.labels['app.kubernetes.io/name']);
          const allowed = name === 'tss-api' ? ['gateway', 'keyshare-node'] : ['gateway'];
          if (peers.length === 0 || names.some((n) => !allowed.includes(n ?? ''))) {
            problems.push(`${name}: ${idOf(o)} lets ${JSON.stringify(peer)} in; only ${allowed.join(', ')} may reach it`);
          }
        }
        if (arr(rule.from).length === 0) problems.push(`${name}: ${idOf(o)} allows ingress from anywhere`);
      }
    }
  }
  return problems;
}

/** Every name a pod spec or Service refers to exists (ConfigMaps, Services, HPA targets, selectors). */
export function checkReferences(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const has = (kind: string, name: string) => objects.some((o) => o.kind === kind && o.metadata.name === name);
  for (const p of podTemplates(objects)) {
    for (const { name, c } of containersOf(p)) {
      for (const from of arr(c.envFrom)) {
        const ref = obj(from.configMapRef);
        if (ref.name && !has('ConfigMap', String(ref.name))) problems.push(`${idOf(p.owner)} ${name}: ConfigMap ${String(ref.name)} missing`);
      }
    }
  }
  for (const s of objects.filter((o) => o.kind === 'Service')) {
    if (selectedPods(objects, { matchLabels: obj(obj(s.spec).selector) }).filter(serving).length === 0) problems.push(`${idOf(s)}: selects no pod`);
  }
  for (const ing of objects.filter((o) => o.kind === 'Ingress')) {
    for (const rule of arr(obj(ing.spec).rules)) {
      for (const path of arr(obj(rule.http).paths)) {
        const svc = obj(obj(path.backend).service);
        const target = objects.find((o) => o.kind === 'Service' && o.metadata.name === svc.name);
        const portName = obj(svc.port).name;
        if (!target) problems.push(`${idOf(ing)}: backend Service ${String(svc.name)} missing`);
        else if (!arr(obj(target.spec).ports).some((x) => x.name === portName)) problems.push(`${idOf(ing)}: port ${String(portName)} missing`);
      }
    }
  }
  for (const hpa of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) {
    const ref = obj(obj(hpa.spec).scaleTargetRef);
    if (!has(String(ref.kind), String(ref.name))) problems.push(`${idOf(hpa)}: target ${String(ref.kind)}/${String(ref.name)} missing`);
  }
  return problems;
}

/** Secret names the rendered objects refer to (to be created by operators; see infra/k8s/README.md). */
export function referencedSecrets(objects: K8sObject[]): Set<string> {
  const names = new Set<string>();
  for (const p of podTemplates(objects)) {
    for (const { c } of containersOf(p)) {
      for (const e of arr(c.env)) {
        const ref = obj(obj(e.valueFrom).secretKeyRef);
        if (ref.name) names.add(String(ref.name));
      }
      for (const from of arr(c.envFrom)) if (obj(from.secretRef).name) names.add(String(obj(from.secretRef).name));
    }
  }
  for (const ing of objects.filter((o) => o.kind === 'Ingress')) {
    for (const tls of arr(obj(ing.spec).tls)) if (tls.secretName) names.add(String(tls.secretName));
  }
  return names;
}
