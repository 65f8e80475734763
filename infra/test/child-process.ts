import { spawn, type ChildProcess } from 'node:child_process';

export { freePort } from '@svc/db/testing';

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** Starts a process, keeping what it prints (for assertions and for failure messages). */
export function spawnProcess(command: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }): Spawned {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
  });
  return { child, output: () => output, exited };
}

/** Polls `url` until it answers 200, or fails after `timeoutMs` with what the process printed. */
export async function waitForOk(url: string, spawned: Spawned, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (spawned.child.exitCode !== null) throw new Error(`process exited early:\n${spawned.output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${spawned.output()}`);
}
