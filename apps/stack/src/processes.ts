import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import type { ServiceSpec } from './services.js';

export interface RunningProcess {
  spec: ServiceSpec;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** SIGTERM (the app drains), SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs: number): Promise<void>;
}

const COLORS = [36, 32, 33, 35, 34, 96, 92, 93];

/**
 * tsx's loader, run inside the app's own node process (`node --import tsx`). The `tsx` command
 * instead runs the app in a second process and relays signals to it: when the app does not
 * acknowledge a signal within 30 ms (a busy event loop on a loaded machine), tsx SIGKILLs it,
 * so a SIGTERM meant to drain it could kill it mid-request.
 */
export const TSX_LOADER = import.meta.resolve('tsx');

/**
 * Starts an app from its TypeScript sources (`tsx watch` in `pnpm dev`). Each output line is
 * prefixed with the service name; JSON log lines are shortened to their message. The app gets
 * its own process group: Ctrl-C in the terminal reaches only the stack, which then stops the
 * apps once each (a second signal would make an app exit without draining).
 */
export function startProcess(repoRoot: string, spec: ServiceSpec, index: number, watch: boolean): RunningProcess {
  const [command, args] = watch
    ? [join(repoRoot, 'node_modules', '.bin', 'tsx'), ['watch', 'src/index.ts']]
    : [process.execPath, ['--import', TSX_LOADER, 'src/index.ts']];
  const child = spawn(command, args, {
    cwd: join(repoRoot, 'apps', spec.app),
    env: { ...process.env, ...spec.env, PORT: String(spec.port), NODE_ENV: process.env.NODE_ENV ?? 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const label = `\x1b[${COLORS[index % COLORS.length]}m${spec.name.padEnd(13)}\x1b[0m|`;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on('line', (line) => console.log(`${label} ${summarise(line)}`));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Should the stack itself die, its apps must not outlive it holding the ports.
  const orphanGuard = () => signalGroup(child, 'SIGTERM');
  process.once('exit', orphanGuard);
  void exited.then(() => process.removeListener('exit', orphanGuard));
  const stop = (graceMs: number) => terminate(child, exited, graceMs, (signal) => signalGroup(child, signal));
  return { spec, child, exited, stop };
}

/**
 * Stops a child the way the stack stops each of its parts: SIGTERM (it drains), SIGKILL after
 * `graceMs`; resolves once it has exited. `send` delivers a signal (default: to the child alone).
 */
export async function terminate(
  child: ChildProcess,
  exited: Promise<unknown>,
  graceMs: number,
  send: (signal: NodeJS.Signals) => void = (signal) => void child.kill(signal),
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  send('SIGTERM');
  const timer = setTimeout(() => send('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Signals the app's whole group (in watch mode: tsx and the node process it runs). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function summarise(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (entry.message === 'request') return `${entry.method} ${entry.path} ${entry.status} ${entry.duration_ms}ms`;
    const { level, message, service: _s, timestamp: _t, ...rest } = entry;
    return `${level} ${message}${Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : ''}`;
  } catch {
    return line;
  }
}

/** Resolves once GET url answers 200, or rejects after `timeoutMs`. */
export async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
}
