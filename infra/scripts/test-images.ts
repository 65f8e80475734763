/**
 * `pnpm --filter @svc/infra test:images`: builds the six container images and runs the
 * deployment the Kubernetes manifests describe from them, on this machine (root, buildah,
 * podman, mmdebstrap; no container runtime and no registry needed). See docs/operations.md,
 * "Testing the images".
 *
 *  1. makes (or reuses) the local node:20-bookworm-slim equivalent (images/base-image.ts);
 *  2. builds gateway, tss-api, admin-api, dashboard-api, keyshare-node and migrate from
 *     infra/docker/Dockerfile as the CI workflow does; prints build times and sizes;
 *  3. starts a PostgreSQL (embedded, on the host) with the main database and one per node;
 *  4. renders infra/k8s/overlays/dev and runs what it describes: the migrate-main Job, each
 *     node's migrate init container then the node, tss-api, admin-api, dashboard-api and the
 *     gateway, each from its image with the manifests' environment (ConfigMaps + the Secrets
 *     of infra/k8s/README.md, dev values), user, read-only root and emptyDirs;
 *  5. checks every probe path and the image's HEALTHCHECK; signs once with Ed25519 and once
 *     with ECDSA through the gateway with the SDK, reaching the gateway and the nodes by their
 *     Ingress hosts; then runs each preStop hook and sends SIGTERM, and requires a clean exit
 *     within terminationGracePeriodSeconds.
 * Exits non-zero on the first failed check, after cleaning up.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueApiKey } from '@svc/auth';
import { startOidcIssuer } from '@svc/auth/testing';
import { createDatabaseIfMissing, createDb, startEmbeddedPostgres } from '@svc/db';
import { freePort } from '@svc/db/testing';
import { generateShareKey } from '@svc/share-cipher';
import { render } from './kustomize.js';
import { ensureNodeBase } from './images/base-image.js';
import { startIngress, type Ingress } from './images/ingress.js';
import { buildImages, imageTag, type BuiltImage } from './images/build-images.js';
import { command } from './images/command.js';
import { removeLeftoverContainers, startContainer, type Container } from './images/container.js';
import { checkPod, type PodReport } from './images/pod-checks.js';
import { createPodNetwork, HOST_ADDRESS } from './images/pod-network.js';
import { planManifests, type ContainerPlan, type PodPlan, type Secrets } from './images/pod-plan.js';
import { documentedSecrets } from './images/secrets-doc.js';
import { signingJourney } from './images/signing-journey.js';

const infraDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(infraDir, '..');
const workDir = join(tmpdir(), 'svc-test-images');
const logDir = join(workDir, 'logs');
const say = (text: string) => console.log(text);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

async function preflight(): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('run as root: buildah, mounts and chroot need it');
  for (const tool of ['buildah', 'podman', 'mmdebstrap', 'unshare', 'nsenter', 'setpriv', 'ip']) {
    await command('sh', ['-c', `command -v ${tool}`]).catch(() => {
      throw new Error(`${tool} is missing: apt-get install -y buildah podman mmdebstrap uidmap`);
    });
  }
}

/** Dev values of the Secrets infra/k8s/README.md documents. */
function devSecrets(mainDb: string, nodeDbs: string[], providers: string): Secrets {
  const emailKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const secrets: Secrets = {
    'svc-main-db': { DATABASE_URL: mainDb },
    'svc-jwt': { JWT_SECRET: randomBytes(48).toString('base64') },
    'svc-share-encryption': { SHARE_ENCRYPTION_KEYS: generateShareKey('k1') },
    // A relay that does not exist: no mail is sent here (the sign-in uses the OIDC issuer), and the
    // mailer connects only to send.
    'svc-smtp': { SMTP_HOST: 'smtp.images-test.invalid', SMTP_USER: 'wallet', SMTP_PASS: randomBytes(12).toString('base64url') },
    // The login provider of this test is a local OIDC issuer; tss-api and the nodes both verify its tokens.
    'tss-api-secrets': { EMAIL_ID_TOKEN_PRIVATE_KEY: JSON.stringify({ ...emailKey, kid: 'images-test' }), OIDC_PROVIDERS: providers },
    'keyshare-node-provider-secrets': { OIDC_PROVIDERS: providers },
  };
  nodeDbs.forEach((url, i) => {
    secrets[`keyshare-node-${i + 1}`] = {
      DATABASE_URL: url,
      SHARE_ENCRYPTION_KEYS: generateShareKey(`n${i + 1}k1`),
      KS_NODE_IDENTITY_KEY: randomBytes(32).toString('hex'),
    };
  });
  return secrets;
}

/** Secrets the manifests read must be documented, and the test must not invent others. */
function checkSecretsDocumented(referenced: Map<string, boolean>, secrets: Secrets, documented: Map<string, Set<string>>): void {
  const problems: string[] = [];
  for (const name of referenced.keys()) if (!documented.has(name)) problems.push(`Secret ${name} is used by the manifests but not documented in infra/k8s/README.md`);
  for (const [name, values] of Object.entries(secrets)) {
    if (!referenced.has(name)) problems.push(`the test creates Secret ${name}, which no manifest reads`);
    for (const key of Object.keys(values)) if (!documented.get(name)?.has(key)) problems.push(`Secret ${name} key ${key} is not documented in infra/k8s/README.md`);
  }
  if (problems.length) throw new Error(problems.join('\n'));
}

interface RunningPod {
  plan: PodPlan;
  ip: string;
  containers: { plan: ContainerPlan; container: Container }[];
}

async function main(): Promise<void> {
  await preflight();
  await removeLeftoverContainers();
  await rm(logDir, { recursive: true, force: true });
  await mkdir(logDir, { recursive: true });
  const started = performance.now();

  say('== base image');
  const base = await ensureNodeBase(repoRoot, workDir, join(logDir, 'base.log'));
  say(base.seconds === undefined ? `${base.image}: reused` : `${base.image}: made in ${base.seconds.toFixed(0)} s`);

  say('== images (infra/docker/Dockerfile, sequential; layers shared)');
  const images: BuiltImage[] = await buildImages(repoRoot, base.image, join(logDir, 'build.log'));
  for (const i of images) say(`${i.app.padEnd(14)} built in ${i.seconds.toFixed(0).padStart(4)} s  ${mb(i.bytes).padStart(7)} (/app ${mb(i.appBytes)})`);

  say('== PostgreSQL (embedded, host)');
  const pgDir = join(workDir, 'pg');
  await rm(pgDir, { recursive: true, force: true });
  await mkdir(pgDir, { recursive: true });
  const pg = await startEmbeddedPostgres({ dataDir: join(pgDir, 'data'), port: await freePort(), persistent: false });
  const issuer = await startOidcIssuer({ alg: 'ES256', audience: 'svc-images-test' });
  const network = await createPodNetwork();
  let ingress: Ingress | undefined;
  const running: RunningPod[] = [];
  try {
    // The database and the issuer's JWKS, as the pods reach them: through the pod network's gateway.
    await network.forward(pg.port, pg.port);
    const issuerPort = Number(new URL(issuer.jwksUri).port);
    await network.forward(issuerPort, issuerPort);
    const dbUrl = (name: string) => {
      const url = new URL(pg.url(name));
      url.hostname = HOST_ADDRESS;
      return url.toString();
    };
    for (const name of ['svc_main', 'keyshare_node_1', 'keyshare_node_2', 'keyshare_node_3']) await createDatabaseIfMissing(pg.url('postgres'), name);
    const mainDb = dbUrl('svc_main');
    const nodeDbs = [1, 2, 3].map((n) => dbUrl(`keyshare_node_${n}`));
    const jwksUri = new URL(issuer.jwksUri);
    jwksUri.hostname = HOST_ADDRESS;
    const providers = JSON.stringify([{ issuer: issuer.issuer, client_id: issuer.audience, jwks_uri: jwksUri.toString() }]);
    const secrets = devSecrets(mainDb, nodeDbs, providers);

    say('== manifests (infra/k8s/overlays/dev)');
    const plan = planManifests(render('overlays/dev'), secrets);
    checkSecretsDocumented(plan.referencedSecrets, secrets, documentedSecrets(await readFile(join(infraDir, 'k8s', 'README.md'), 'utf8')));
    const ips = new Map(plan.pods.map((p, i) => [p.name, network.address(10 + i)]));
    const podOf = (service: string) => plan.pods.find((p) => p.name === plan.services[service])!;
    ingress = await startIngress(workDir, HOST_ADDRESS, Object.keys(plan.ingressHosts), (host) => {
      const service = plan.ingressHosts[host];
      return service ? { ip: ips.get(podOf(service).name)!, port: podOf(service).containers[0]!.port! } : undefined;
    });
    // Service names resolve to their pod, Ingress hosts to the ingress (the kubelet's /etc/hosts and the cluster DNS).
    const hostsFile = join(workDir, 'hosts');
    await writeFile(
      hostsFile,
      [
        '127.0.0.1\tlocalhost',
        ...Object.entries(plan.services).map(([svc, pod]) => `${ips.get(pod)}\t${svc}`),
        ...Object.keys(plan.ingressHosts).map((host) => `${HOST_ADDRESS}\t${host}`),
        '',
      ].join('\n'),
    );
    const trustIngress = { volumes: [{ hostPath: ingress.caDir, mountPath: '/mnt' }], extraEnv: { NODE_EXTRA_CA_CERTS: '/mnt/ca.pem' } };
    say(`${plan.pods.length} workloads, ${Object.keys(plan.services).length} Services, Ingress hosts ${Object.keys(plan.ingressHosts).join(', ')}`);

    const startPod = async (pod: PodPlan): Promise<RunningPod> => {
      const ip = ips.get(pod.name)!;
      const start = (c: ContainerPlan) =>
        startContainer({ image: imageTag(c.app), plan: c, ip, hostsFile, network, ...trustIngress, log: join(logDir, `${pod.name}.${c.name}.log`) });
      for (const init of pod.initContainers) {
        const container = await start(init);
        const { code } = await container.exited;
        await container.remove();
        if (code !== 0) throw new Error(`${pod.name}: init container ${init.name} exited ${code}:\n${container.output()}`);
        say(`${pod.name}: init container ${init.name} done (${lastLogMessage(container.output())})`);
      }
      const r: RunningPod = { plan: pod, ip, containers: [] };
      running.push(r);
      for (const c of pod.containers) r.containers.push({ plan: c, container: await start(c) });
      return r;
    };

    say('== migrate-main Job');
    for (const job of plan.pods.filter((p) => p.kind === 'Job')) {
      const r = await startPod(job);
      for (const { container } of r.containers) {
        const { code } = await container.exited;
        await container.remove();
        if (code !== 0) throw new Error(`${job.name} exited ${code}:\n${container.output()}`);
        say(`${job.name}: exited 0 (${lastLogMessage(container.output())})`);
      }
      running.splice(running.indexOf(r), 1);
    }

    say('== services');
    const serving = plan.pods.filter((p) => p.kind !== 'Job');
    // Key share nodes first (tss-api asks them in user/check), the gateway last, as a rollout would settle.
    const order = (p: PodPlan) => (p.kind === 'StatefulSet' ? 0 : p.name === 'gateway' ? 2 : 1);
    serving.sort((a, b) => order(a) - order(b));
    const reports: PodReport[] = [];
    for (const pod of serving) {
      const r = await startPod(pod);
      for (const { plan: c, container } of r.containers) {
        const report = await checkPod(pod, c, container);
        reports.push(report);
        say(`${pod.name.padEnd(16)} ${r.ip.padEnd(11)} ${report.summary}`);
      }
    }

    say('== signatures through the gateway (SDK, via the Ingress hosts)');
    const db = createDb(pg.url('svc_main'));
    const issued = issueApiKey();
    try {
      const customer = await db.customer.create({ data: { label: 'images test', email: 'images-test@example.com' } });
      await db.apiKey.create({ data: { customerId: customer.id, keyPrefix: issued.displayPrefix, keyHash: issued.hash, label: 'images test' } });
    } finally {
      await db.$disconnect();
    }
    const clientFetch = ingressFetch(plan.ingressHosts, plan.services, ips, serving);
    const gatewayHost = Object.entries(plan.ingressHosts).find(([, svc]) => svc === 'gateway')![0];
    const idToken = await issuer.issue({ sub: `images-${Date.now()}`, email: 'images-user@example.com' }, { expiresIn: 600 });
    const journey = await signingJourney({ gatewayUrl: `https://${gatewayHost}`, apiKey: issued.key, idToken, fetch: clientFetch });
    say(`keygen ${journey.keygenMs.toFixed(0)} ms; Ed25519 signature ${journey.ed25519Ms.toFixed(0)} ms, verified; ECDSA signature ${journey.ecdsaMs.toFixed(0)} ms, verified`);

    say('== first admin (the command shipped in the admin-api image), then its sign-in through the gateway');
    const adminPod = running.find((r) => r.plan.name === 'admin-api')!.containers[0]!.container;
    const admin = { email: 'ops@example.com', password: randomBytes(18).toString('base64url') };
    const created = await adminPod.exec([`ADMIN_EMAIL=${admin.email}`, `ADMIN_PASSWORD=${admin.password}`, 'node', '/app/dist/create-admin.mjs']);
    if (created.code !== 0) throw new Error(`create-admin exited ${created.code}: ${created.output}`);
    const login = await clientFetch(`https://${gatewayHost}/svc_admin/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    const loginBody = (await login.json()) as { success?: boolean };
    if (login.status !== 200 || loginBody.success !== true) throw new Error(`admin sign-in answered ${login.status} ${JSON.stringify(loginBody)}`);
    say(`${created.output.trim()}; POST /svc_admin/v1/user/login -> 200`);

    say('== SIGTERM (preStop hook, then SIGTERM; all pods at once)');
    const stops = await Promise.all(running.flatMap((r) => r.containers.map(({ plan: c, container }) => stopContainer(r.plan, c, container))));
    running.length = 0;
    for (const s of stops) say(s);

    say(`== passed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    say('image           build   size     /app');
    for (const i of images) say(`${i.app.padEnd(14)} ${`${i.seconds.toFixed(0)} s`.padStart(6)} ${mb(i.bytes).padStart(7)} ${mb(i.appBytes).padStart(7)}`);
  } finally {
    // Every step, even when an earlier one fails: nothing of the run may stay behind.
    const steps: (() => Promise<unknown>)[] = [
      ...running.flatMap((r) =>
        r.containers.map(({ container }) => async () => {
          try {
            process.kill(container.pid, 'SIGKILL');
          } catch {
            // already ended
          }
          await container.exited;
          await container.remove();
        }),
      ),
      async () => ingress?.close(),
      () => network.close(),
      () => issuer.close(),
      () => pg.stop(),
    ];
    for (const step of steps) await step().catch((error: unknown) => console.error(`cleanup: ${String(error)}`));
  }
}

/** The last `message` a container logged (its one-JSON-object-a-line logs). */
function lastLogMessage(output: string): string {
  const lines = output.trim().split('\n').reverse();
  for (const line of lines) {
    try {
      const parsed = JSON.parse(line) as { message?: string };
      if (parsed.message) return parsed.message;
    } catch {
      // not a JSON line
    }
  }
  return lines[0] ?? '';
}

/**
 * fetch as the client reaches the service from outside: an https URL of an Ingress host goes
 * to the pod behind that host's Service (the ingress controller terminates TLS).
 */
function ingressFetch(hosts: Record<string, string>, services: Record<string, string>, ips: Map<string, string>, pods: PodPlan[]) {
  return (input: string, init?: RequestInit) => {
    const url = new URL(input);
    const service = hosts[url.host];
    if (service) {
      const pod = pods.find((p) => p.name === services[service])!;
      url.protocol = 'http:';
      url.host = `${ips.get(pod.name)}:${pod.containers[0]!.port}`;
    }
    return fetch(url, init);
  };
}

async function stopContainer(pod: PodPlan, c: ContainerPlan, container: Container): Promise<string> {
  const t0 = Date.now();
  const graceMs = pod.terminationGracePeriodSeconds * 1000;
  // The kubelet runs preStop, then sends SIGTERM; both count against the grace period.
  if (c.preStop) {
    const hook = await container.exec(c.preStop, graceMs);
    if (hook.code !== 0) throw new Error(`${pod.name}: preStop ${c.preStop.join(' ')} failed (${hook.code}): ${hook.output}`);
  }
  const tTerm = Date.now();
  process.kill(container.pid, 'SIGTERM');
  const timer = setTimeout(() => process.kill(container.pid, 'SIGKILL'), Math.max(0, graceMs - (tTerm - t0)));
  const { code, signal, at } = await container.exited;
  clearTimeout(timer);
  await container.remove();
  const line = `${pod.name.padEnd(16)} preStop ${((tTerm - t0) / 1000).toFixed(1)} s, exit ${code ?? signal} ${at - tTerm} ms after SIGTERM (grace ${pod.terminationGracePeriodSeconds} s)`;
  if (code !== 0) throw new Error(`${line}: not a clean exit\n${container.output().slice(-3000)}`);
  return line;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`\ntest:images FAILED: ${error instanceof Error ? error.message : String(error)}`);
    console.error(`logs: ${logDir}`);
    process.exit(1);
  },
);
