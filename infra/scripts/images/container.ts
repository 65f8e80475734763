/**
 * Starts a container from a local image without a container runtime (podman run needs cgroups
 * this sandbox refuses): the image's root filesystem is mounted with `buildah mount`, and the
 * process runs in new mount and PID namespaces, chrooted there, as the manifests' user, with
 * the image's working directory and environment (the manifests' environment over it), and as
 * PID 1, so SIGTERM reaches it exactly as the kubelet sends it. Where the manifests say so the
 * root is read-only; emptyDir volumes are tmpfs mounts of their size limit; /etc/hosts is
 * replaced (as the kubelet does) by one naming the Services. Each container has its own network
 * namespace on the pod network (pod-network.ts), attached before the process starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, readFile, readdir } from 'node:fs/promises';
import { command } from './command.js';
import type { ContainerPlan } from './pod-plan.js';
import type { PodNetwork } from './pod-network.js';

export interface ImageConfig {
  env: Record<string, string>;
  workingDir: string;
  user: string;
  entrypoint: string[];
  cmd: string[];
  healthcheck?: string[];
}

export async function imageConfig(image: string): Promise<ImageConfig> {
  const inspected = JSON.parse((await command('buildah', ['inspect', '--type', 'image', image])).stdout) as {
    OCIv1: { config: { Env?: string[]; WorkingDir?: string; User?: string; Entrypoint?: string[]; Cmd?: string[] } };
    Docker: { config: { Healthcheck?: { Test?: string[] } } };
  };
  const config = inspected.OCIv1.config;
  const test = inspected.Docker.config.Healthcheck?.Test;
  return {
    env: Object.fromEntries((config.Env ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])),
    workingDir: config.WorkingDir || '/',
    user: config.User ?? '',
    entrypoint: config.Entrypoint ?? [],
    cmd: config.Cmd ?? [],
    ...(test?.[0] === 'CMD' ? { healthcheck: test.slice(1) } : {}),
  };
}

const NAME_PREFIX = 'svc-test-';

/** Removes the working containers an interrupted run left behind (their names would clash). */
export async function removeLeftoverContainers(): Promise<void> {
  const listed = (await command('buildah', ['containers', '--format', '{{.ContainerName}} {{.ContainerID}}'])).stdout;
  for (const [name, id] of listed.split('\n').map((l) => l.trim().split(/\s+/))) {
    if (!name?.startsWith(NAME_PREFIX) || !id) continue;
    await command('buildah', ['umount', id]).catch(() => undefined);
    await command('buildah', ['rm', id]);
  }
}

export interface Container {
  name: string;
  /** The pod's address on the pod network. */
  ip: string;
  /** argv the container's process runs (entrypoint/command + cmd/args). */
  argv: string[];
  env: Record<string, string>;
  /** Host PID of the container's PID 1 (the app). */
  pid: number;
  /** When the process was started (Date.now()). */
  startedAt: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  output(): string;
  /** Runs a command inside the running container (as its user, with its environment). */
  exec(argv: string[], timeoutMs?: number): Promise<{ code: number | null; output: string; ms: number }>;
  /** Unmounts and removes the working container. */
  remove(): Promise<void>;
}

const SETUP = String.raw`
set -eu
# Wait until the host has attached this network namespace to the pod network.
read -r _
r="$1"; hosts="$2"; ro="$3"; shift 3
mount --bind "$r" "$r"
mount -t proc -o nosuid,nodev,noexec proc "$r/proc"
# A minimal /dev, as a container runtime gives: the usual character devices only.
mount -t tmpfs -o nosuid,noexec,mode=755,size=64k tmpfs "$r/dev"
for d in null zero full random urandom tty; do touch "$r/dev/$d"; mount --bind "/dev/$d" "$r/dev/$d"; done
ln -s /proc/self/fd "$r/dev/fd"; ln -s /proc/self/fd/0 "$r/dev/stdin"; ln -s /proc/self/fd/1 "$r/dev/stdout"; ln -s /proc/self/fd/2 "$r/dev/stderr"
mkdir "$r/dev/shm"; mount -t tmpfs -o nosuid,nodev,noexec,size=64m tmpfs "$r/dev/shm"
mount --bind "$hosts" "$r/etc/hosts"
while [ "$1" != "--" ]; do
  # An emptyDir (path, size limit in bytes), writable by everyone as the kubelet makes it.
  mount -t tmpfs -o "nosuid,nodev,mode=1777,size=$2" tmpfs "$r$1"; shift 2
done
shift
while [ "$1" != "--" ]; do
  # A read-only volume (host folder, mount path).
  mount --bind "$1" "$r$2"; mount -o remount,bind,ro "$r$2"; shift 2
done
shift
if [ "$ro" = ro ]; then mount -o remount,bind,ro "$r"; fi
exec "$@" </dev/null
`;

async function childPid(parent: number): Promise<number | undefined> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === parent) return Number(entry);
  }
  return undefined;
}

export interface StartOptions {
  image: string;
  plan: ContainerPlan;
  ip: string;
  hostsFile: string;
  network: PodNetwork;
  /** Read-only volumes (a host folder at a path in the container) and variables that go with them. */
  volumes?: { hostPath: string; mountPath: string }[];
  extraEnv?: Record<string, string>;
  log: string;
}

export async function startContainer(options: StartOptions): Promise<Container> {
  const { plan } = options;
  const config = await imageConfig(options.image);
  // Kubernetes: command replaces the image's ENTRYPOINT, args its CMD (and command alone drops CMD).
  const entry = plan.command ?? config.entrypoint;
  const argv = [...entry, ...(plan.args ?? (plan.command ? [] : config.cmd))];
  const env = { ...config.env, ...plan.env, ...options.extraEnv };
  const cid = (await command('buildah', ['from', '--pull-never', '--name', `${NAME_PREFIX}${plan.name}-${options.ip}`, options.image])).stdout.trim();
  const root = (await command('buildah', ['mount', cid])).stdout.trim();
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const inside = (args: string[]) => [
    'setpriv', '--no-new-privs', 'chroot', `--userspec=${plan.user}:${plan.group}`, `--groups=${plan.group}`, root,
    '/usr/bin/env', '-i', '-C', config.workingDir, ...envArgs, ...args,
  ];
  const mounts = [
    ...plan.emptyDirs.flatMap((d) => [d.path, String(d.bytes)]),
    '--',
    ...(options.volumes ?? []).flatMap((v) => [v.hostPath, v.mountPath]),
  ];

  const startedAt = Date.now();
  const child: ChildProcess = spawn(
    'unshare',
    ['--mount', '--pid', '--net', '--fork', '--propagation', 'private', '--', 'sh', '-c', SETUP, 'setup', root, options.hostsFile, plan.readOnlyRoot ? 'ro' : 'rw', ...mounts, '--', ...inside(argv)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    void appendFile(options.log, chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
  });

  let pid: number | undefined;
  for (let i = 0; i < 100 && pid === undefined && child.exitCode === null; i++) {
    pid = await childPid(child.pid!);
    if (pid === undefined) await new Promise((r) => setTimeout(r, 20));
  }
  const remove = async () => {
    await command('buildah', ['umount', cid]).catch(() => undefined);
    await command('buildah', ['rm', cid]).catch(() => undefined);
  };
  if (pid === undefined) {
    child.stdin!.end();
    await exited;
    await remove();
    throw new Error(`${plan.name}: the container did not start:\n${output}`);
  }
  try {
    await options.network.attach(pid, options.ip);
  } finally {
    // Lets the setup go on (or, without a network, fail at once).
    child.stdin!.end('\n');
  }

  return {
    name: plan.name,
    ip: options.ip,
    argv,
    env,
    pid,
    startedAt,
    exited,
    output: () => output,
    remove,
    async exec(args, timeoutMs = 30_000) {
      const started = performance.now();
      // Into the container's mount, PID and network namespaces, then the same chroot, user and environment.
      const run = spawn('nsenter', [`--target=${pid}`, '--mount', '--pid', '--net', '--', ...inside(args)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      run.stdout.on('data', (c: Buffer) => (out += c.toString()));
      run.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const timer = setTimeout(() => run.kill('SIGKILL'), timeoutMs);
      const code = await new Promise<number | null>((resolve) => run.once('close', resolve));
      clearTimeout(timer);
      return { code, output: out, ms: performance.now() - started };
    },
  };
}
