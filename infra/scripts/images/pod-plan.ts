/**
 * What Kubernetes would run, read from the rendered manifests: for each workload its
 * containers with the environment the kubelet would give them (ConfigMaps and Secrets resolved
 * with Kubernetes' precedence), user, read-only root, emptyDir mounts, probes, preStop hook and
 * termination grace period; plus which Service and Ingress host reach which pod.
 */
import type { K8sObject } from '../kustomize.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Secret name -> key -> value: the Secrets an operator creates (infra/k8s/README.md). */
export type Secrets = Record<string, Record<string, string>>;

export interface ContainerPlan {
  name: string;
  /** Image target (gateway, tss-api, ..., migrate): the last path segment of the image name. */
  app: string;
  command?: string[];
  args?: string[];
  env: Record<string, string>;
  user: number;
  group: number;
  runAsNonRoot: boolean;
  readOnlyRoot: boolean;
  /** emptyDir volumes: mount path and size limit (bytes). */
  emptyDirs: { path: string; bytes: number }[];
  port?: number;
  probes: { startup?: string; liveness?: string; readiness?: string };
  preStop?: string[];
}

export interface PodPlan {
  /** Workload name (Deployment, StatefulSet or Job). */
  name: string;
  kind: string;
  labels: Record<string, string>;
  terminationGracePeriodSeconds: number;
  initContainers: ContainerPlan[];
  containers: ContainerPlan[];
}

export interface ManifestPlan {
  pods: PodPlan[];
  /** Service name -> the workload it selects. */
  services: Record<string, string>;
  /** Ingress host -> Service name. */
  ingressHosts: Record<string, string>;
  /** Secret names the manifests reference, and whether every reference is optional. */
  referencedSecrets: Map<string, boolean>;
}

const QUANTITY = /^(\d+)(Ki|Mi|Gi)?$/;
function bytes(quantity: unknown, fallback: number): number {
  const m = QUANTITY.exec(String(quantity ?? ''));
  if (!m) return fallback;
  return Number(m[1]) * ({ Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[m[2] ?? ''] ?? 1);
}

export function planManifests(objects: K8sObject[], secrets: Secrets): ManifestPlan {
  const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, obj(o.data) as Record<string, string>]));
  const referencedSecrets = new Map<string, boolean>();
  const noteSecret = (name: string, optional: boolean) => referencedSecrets.set(name, (referencedSecrets.get(name) ?? true) && optional);

  const pods: PodPlan[] = [];
  for (const o of objects) {
    if (!['Deployment', 'StatefulSet', 'Job'].includes(o.kind)) continue;
    const template = obj(obj(o.spec).template);
    const spec = obj(template.spec);
    const podSecurity = obj(spec.securityContext);
    const volumes = new Map(arr(spec.volumes).map((v) => [String(v.name), v]));

    const container = (c: Json): ContainerPlan => {
      const where = `${o.kind}/${o.metadata.name} container ${String(c.name)}`;
      const env: Record<string, string> = {};
      // envFrom in order (a later source wins), then env (wins over envFrom): Kubernetes' precedence.
      for (const source of arr(c.envFrom)) {
        const cm = obj(source.configMapRef);
        const sr = obj(source.secretRef);
        if (cm.name) {
          const data = configMaps.get(String(cm.name));
          if (!data && !cm.optional) throw new Error(`${where}: ConfigMap ${String(cm.name)} is not in the manifests`);
          Object.assign(env, data ?? {});
        } else if (sr.name) {
          const name = String(sr.name);
          noteSecret(name, sr.optional === true);
          if (!secrets[name] && !sr.optional) throw new Error(`${where}: needs Secret ${name}, which the test does not create`);
          Object.assign(env, secrets[name] ?? {});
        }
      }
      for (const e of arr(c.env)) {
        const name = String(e.name);
        if (typeof e.value === 'string') {
          env[name] = e.value;
          continue;
        }
        const from = obj(e.valueFrom);
        const secretRef = obj(from.secretKeyRef);
        const cmRef = obj(from.configMapKeyRef);
        const ref = secretRef.name ? secretRef : cmRef;
        const optional = ref.optional === true;
        if (secretRef.name) noteSecret(String(secretRef.name), optional);
        const value = secretRef.name ? secrets[String(secretRef.name)]?.[String(secretRef.key)] : configMaps.get(String(cmRef.name))?.[String(cmRef.key)];
        if (value !== undefined) env[name] = value;
        else if (!optional) throw new Error(`${where}: ${name} refers to ${String(ref.name)}/${String(ref.key)}, which does not exist`);
      }
      const security = { ...podSecurity, ...obj(c.securityContext) };
      const probePath = (p: unknown) => str(obj(obj(p).httpGet).path);
      const ports = arr(c.ports);
      const image = String(c.image);
      return {
        name: String(c.name),
        app: image.replace(/[:@].*$/, '').split('/').pop()!,
        ...(Array.isArray(c.command) ? { command: c.command as string[] } : {}),
        ...(Array.isArray(c.args) ? { args: c.args as string[] } : {}),
        env,
        user: Number(security.runAsUser ?? -1),
        group: Number(security.runAsGroup ?? security.runAsUser ?? -1),
        runAsNonRoot: security.runAsNonRoot === true,
        readOnlyRoot: security.readOnlyRootFilesystem === true,
        emptyDirs: arr(c.volumeMounts).flatMap((m) => {
          const volume = volumes.get(String(m.name));
          if (!volume?.emptyDir) throw new Error(`${where}: volume ${String(m.name)} is not an emptyDir; the test only knows emptyDirs`);
          return [{ path: String(m.mountPath), bytes: bytes(obj(volume.emptyDir).sizeLimit, 64 * 1024 ** 2) }];
        }),
        ...(ports[0] ? { port: Number(ports[0].containerPort) } : {}),
        probes: {
          ...(probePath(c.startupProbe) ? { startup: probePath(c.startupProbe) } : {}),
          ...(probePath(c.livenessProbe) ? { liveness: probePath(c.livenessProbe) } : {}),
          ...(probePath(c.readinessProbe) ? { readiness: probePath(c.readinessProbe) } : {}),
        },
        ...(Array.isArray(obj(obj(obj(c.lifecycle).preStop).exec).command) ? { preStop: obj(obj(obj(c.lifecycle).preStop).exec).command as string[] } : {}),
      };
    };

    pods.push({
      name: o.metadata.name,
      kind: o.kind,
      labels: obj(obj(template.metadata).labels) as Record<string, string>,
      // Kubernetes' default when the field is absent.
      terminationGracePeriodSeconds: Number(spec.terminationGracePeriodSeconds ?? 30),
      initContainers: arr(spec.initContainers).map(container),
      containers: arr(spec.containers).map(container),
    });
  }

  const services: Record<string, string> = {};
  for (const s of objects.filter((o) => o.kind === 'Service')) {
    const selector = Object.entries(obj(obj(s.spec).selector));
    const pod = pods.find((p) => p.kind !== 'Job' && selector.length > 0 && selector.every(([k, v]) => p.labels[k] === v));
    if (!pod) throw new Error(`Service/${s.metadata.name} selects no workload`);
    for (const port of arr(obj(s.spec).ports)) {
      const target = port.targetPort ?? port.port;
      const served = [...pod.containers].some((c) => c.port === Number(port.port) && (target === 'http' || Number(target) === c.port));
      if (!served) throw new Error(`Service/${s.metadata.name} port ${String(port.port)} does not reach a container port of ${pod.name}`);
    }
    services[s.metadata.name] = pod.name;
  }

  const ingressHosts: Record<string, string> = {};
  for (const ing of objects.filter((o) => o.kind === 'Ingress')) {
    for (const rule of arr(obj(ing.spec).rules)) {
      for (const path of arr(obj(rule.http).paths)) ingressHosts[String(rule.host)] = String(obj(obj(path.backend).service).name);
    }
  }
  return { pods, services, ingressHosts, referencedSecrets };
}
