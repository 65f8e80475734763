import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import type { ServiceSpec } from './services.js';

export interface RunningProcess {
  spec: ServiceSpec;
  child: ChildProcess;
  exited: Promise<number | null>;
}

const COLORS = [36, 32, 33, 35, 34, 96, 92, 93];

/**
 * Starts an app with tsx (TypeScript straight from source, as in `pnpm dev`). Each output
 * line is prefixed with the service name; JSON log lines are shortened to their message.
 */
export function startProcess(repoRoot: string, spec: ServiceSpec, index: number, watch: boolean): RunningProcess {
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  const args = [...(watch ? ['watch'] : []), 'src/index.ts'];
  const child = spawn(tsx, args, {
    cwd: join(repoRoot, 'apps', spec.app),
    env: { ...process.env, ...spec.env, PORT: String(spec.port), NODE_ENV: process.env.NODE_ENV ?? 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const label = `\x1b[${COLORS[index % COLORS.length]}m${spec.name.padEnd(13)}\x1b[0m|`;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on('line', (line) => console.log(`${label} ${summarise(line)}`));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { spec, child, exited };
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
