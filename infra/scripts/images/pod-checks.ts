/**
 * What is checked on each serving container once started: its probes answer 200 (startup
 * within the startup probe's budget), the image's own HEALTHCHECK passes, it runs as the
 * manifests' non-root user, its root filesystem is read-only and its emptyDirs writable.
 */
import { readFile } from 'node:fs/promises';
import type { Container } from './container.js';
import { imageConfig } from './container.js';
import { imageTag } from './build-images.js';
import type { ContainerPlan, PodPlan } from './pod-plan.js';

export interface PodReport {
  pod: string;
  summary: string;
}

/** The startup probes of the manifests allow periodSeconds 2 x failureThreshold 30. */
const STARTUP_BUDGET_MS = 60_000;
const READY_BUDGET_MS = 30_000;

async function waitFor200(url: string, container: Container, budgetMs: number): Promise<number> {
  const t0 = Date.now();
  let last = 'no answer';
  while (Date.now() - t0 < budgetMs) {
    const exited = await Promise.race([container.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 0))]);
    if (exited) throw new Error(`${container.name} exited before ${url} answered:\n${container.output().slice(-3000)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (res.status === 200) return Date.now() - t0;
      last = `${res.status} ${(await res.text()).slice(0, 300)}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer 200 within ${budgetMs} ms (last: ${last})\n${container.output().slice(-3000)}`);
}

async function processIds(pid: number): Promise<{ uids: number[]; gids: number[]; rssKb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => (new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(status)?.[1] ?? '').split(/\s+/).map(Number);
  return { uids: field('Uid'), gids: field('Gid'), rssKb: field('VmRSS')[0] ?? 0 };
}

export async function checkPod(pod: PodPlan, plan: ContainerPlan, container: Container): Promise<PodReport> {
  const base = `http://${container.ip}:${plan.port}`;
  const problems: string[] = [];
  await waitFor200(`${base}${plan.probes.startup ?? '/health'}`, container, STARTUP_BUDGET_MS);
  const startupMs = Date.now() - container.startedAt;
  if (plan.probes.liveness) await waitFor200(`${base}${plan.probes.liveness}`, container, 5_000);
  if (plan.probes.readiness) await waitFor200(`${base}${plan.probes.readiness}`, container, READY_BUDGET_MS);
  const readyMs = Date.now() - container.startedAt;

  const { uids, gids, rssKb } = await processIds(container.pid);
  if (uids.some((u) => u !== plan.user) || gids.some((g) => g !== plan.group)) problems.push(`runs as uid ${uids.join('/')} gid ${gids.join('/')}, manifests say ${plan.user}:${plan.group}`);
  if (plan.runAsNonRoot && uids.includes(0)) problems.push('runs as root although runAsNonRoot');

  const fsCheck = await container.exec([
    'sh', '-c',
    `if touch /.write-probe 2>/dev/null; then echo root=writable; else echo root=read-only; fi; for d in ${plan.emptyDirs.map((d) => d.path).join(' ')}; do touch "$d/.write-probe" && echo "$d=writable"; done; ` +
      'for t in npm npx yarn corepack; do command -v $t >/dev/null && echo "package-manager=$t"; done; true',
  ]);
  const tools = [...fsCheck.output.matchAll(/package-manager=(\w+)/g)].map((m) => m[1]);
  if (tools.length) problems.push(`package managers in a production image: ${tools.join(', ')}`);
  if (plan.readOnlyRoot && !fsCheck.output.includes('root=read-only')) problems.push('the root filesystem is writable although readOnlyRootFilesystem');
  for (const d of plan.emptyDirs) if (!fsCheck.output.includes(`${d.path}=writable`)) problems.push(`emptyDir ${d.path} is not writable: ${fsCheck.output}`);

  const config = await imageConfig(imageTag(plan.app));
  let healthcheck = 'none';
  if (config.healthcheck) {
    const run = await container.exec(config.healthcheck, 10_000);
    healthcheck = run.code === 0 ? 'ok' : `FAILED (${run.code}) ${run.output}`;
    if (run.code !== 0) problems.push(`the image HEALTHCHECK ${config.healthcheck.join(' ')} failed: ${run.output}`);
  }
  if (problems.length) throw new Error(`${pod.name}/${plan.name}:\n  ${problems.join('\n  ')}`);
  return {
    pod: pod.name,
    summary:
      `${plan.probes.startup ?? '/health'} 200 ${(startupMs / 1000).toFixed(1)} s after start, ${plan.probes.readiness ?? '-'} 200 at ${(readyMs / 1000).toFixed(1)} s, ` +
      `uid ${plan.user}, root ${plan.readOnlyRoot ? 'read-only' : 'writable'}, no npm, HEALTHCHECK ${healthcheck}, RSS ${(rssKb / 1024).toFixed(0)} MB`,
  };
}
