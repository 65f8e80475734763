import { spawn, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDb } from '@svc/db';
import { freePort } from '@svc/db/testing';

const appDir = resolve(import.meta.dirname, '..');

/** GET without keep-alive (agent: false), so no socket outlives the test. */
function getText(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false, timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

async function healthy(url: string): Promise<boolean> {
  return getText(url).then((r) => r.status === 200, () => false);
}

interface Stack {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Waits until the output matches, failing early if the stack exits. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Waits for the exit, at most `timeoutMs`: the code, or 'timeout'. */
  exit(timeoutMs: number): Promise<number | null | 'timeout'>;
}

/**
 * Spawns the stack exactly as `pnpm start` does, in its own process group (as a terminal runs
 * it: Ctrl-C reaches the stack and the PostgreSQL it spawned).
 */
function startStack(env: Record<string, string>): Stack {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: appDir,
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const exited = new Promise<number | null>((res) => child.once('exit', res));
  const text = () => output.join('');
  return {
    child,
    output: text,
    exited,
    async waitFor(pattern, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(text())) {
        if (child.exitCode !== null) throw new Error(`stack exited early, waiting for ${pattern}:\n${text()}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${text()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async exit(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)))]);
      clearTimeout(timer);
      return code;
    },
  };
}

/** Ctrl-C in the terminal: SIGINT to the whole foreground process group. */
const ctrlC = (stack: Stack) => {
  if (stack.child.exitCode === null) process.kill(-stack.child.pid!, 'SIGINT');
};
const STACK_TRACE = /^\s+at /m;

describe('pnpm start', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'stack-'));
    env = { STACK_DATA_DIR: dataDir, EMBEDDED_PG_DATA_DIR: join(dataDir, 'postgres'), EMBEDDED_PG_PORT: String(await freePort()) };
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('starts the whole stack, refuses a second start, restarts a crashed app and PostgreSQL, and stops cleanly', async () => {
    const stack = startStack(env);
    try {
      await stack.waitFor(/ready in \d/);
      for (const port of [4200, 4201, 4202, 4203, 4210, 4220, 4230]) {
        expect(await healthy(`http://127.0.0.1:${port}/health`)).toBe(true);
      }
      expect((await getText('http://127.0.0.1:4200/docs/')).body).toContain('swagger-ui');

      // A second `pnpm start` on the same data says so and leaves the first one alone.
      const second = startStack(env);
      expect(await second.exit(30_000)).toBe(1);
      expect(second.output()).toMatch(/pnpm start is already running \(pid \d+\)/);
      expect(second.output()).not.toMatch(/starting PostgreSQL/);
      expect(await healthy('http://127.0.0.1:4210/health')).toBe(true);

      // A crashed key share node is restarted; the rest keeps serving.
      const nodePid = Number(/started node-1 \(pid (\d+)\)/.exec(stack.output())![1]);
      process.kill(-nodePid, 'SIGKILL');
      await stack.waitFor(/node-1 exited with code null; restarting in \d+ ms/, 10_000);
      await stack.waitFor(new RegExp(`started node-1 \\(pid (?!${nodePid}\\))\\d+\\)`), 10_000);
      const deadline = Date.now() + 60_000;
      while (!(await healthy('http://127.0.0.1:4201/health')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(await healthy('http://127.0.0.1:4201/health')).toBe(true);
      expect(await healthy('http://127.0.0.1:4200/health')).toBe(true);

      // PostgreSQL killed: restarted, and the apps' readiness comes back.
      const pgPid = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
      process.kill(pgPid, 'SIGKILL');
      await stack.waitFor(/PostgreSQL exited with code \d+; restarting/, 10_000);
      await stack.waitFor(/PostgreSQL restarted/, 30_000);
      const readyBy = Date.now() + 60_000;
      while ((await getText('http://127.0.0.1:4210/ready').catch(() => ({ status: 0 }))).status !== 200 && Date.now() < readyBy) {
        await new Promise((r) => setTimeout(r, 250));
      }
      expect((await getText('http://127.0.0.1:4210/ready')).status).toBe(200);

      // Something to find again after a restart.
      const db = createDb(`postgresql://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/svc_main`);
      await db.$executeRawUnsafe("CREATE TABLE stack_test_marker AS SELECT 'kept' AS value");
      await db.$disconnect();
    } finally {
      ctrlC(stack);
      expect({ code: await stack.exit(45_000), output: stack.output() }).toEqual({ code: 0, output: expect.stringMatching(/^stopped$/m) });
    }
    expect(stack.output()).not.toMatch(STACK_TRACE);
    for (const port of [4200, 4201, 4210]) expect(await healthy(`http://127.0.0.1:${port}/health`)).toBe(false);
  }, 240_000);

  it('keeps the data for the next start', async () => {
    const stack = startStack(env);
    try {
      await stack.waitFor(/migrations: 0 applied/);
      const db = createDb(`postgresql://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/svc_main`);
      try {
        expect(await db.$queryRawUnsafe('SELECT value FROM stack_test_marker')).toEqual([{ value: 'kept' }]);
      } finally {
        await db.$disconnect();
      }
    } finally {
      ctrlC(stack);
      expect(await stack.exit(45_000)).toBe(0);
    }
  }, 180_000);

  it('stops cleanly on Ctrl-C during start-up (database and migrations)', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'stack-fresh-'));
    try {
      const stack = startStack({ STACK_DATA_DIR: fresh, EMBEDDED_PG_DATA_DIR: join(fresh, 'postgres'), EMBEDDED_PG_PORT: String(await freePort()) });
      await stack.waitFor(/database ready/);
      // A busy stack (here: stopped outright) that takes its time to see the signal must still
      // stop cleanly; a wrapper process that kills what does not answer a signal fast would not.
      const stackPid = Number(await readFile(join(fresh, 'stack.pid'), 'utf8'));
      process.kill(stackPid, 'SIGSTOP');
      ctrlC(stack);
      await new Promise((r) => setTimeout(r, 300));
      process.kill(stackPid, 'SIGCONT');
      // The step under way (the migrations) finishes, then what was started stops.
      expect({ code: await stack.exit(30_000), output: stack.output() }).toEqual({ code: 0, output: expect.stringMatching(/^stopping\.\.\.\n(?:migrations: .*\n)?stopped\n$/m) });
      // The database runs in a process group of its own: the terminal's Ctrl-C does not reach
      // it, the stack stops it after the apps.
      expect(stack.output()).not.toMatch(/PostgreSQL exited/);
      expect(stack.output()).not.toMatch(STACK_TRACE);
      expect(stack.output()).not.toMatch(/ready in \d/);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 120_000);

  it('names the port that is taken instead of failing with a stack trace', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(4230, '0.0.0.0', resolve));
    try {
      const stack = startStack(env);
      expect(await stack.exit(30_000)).toBe(1);
      expect(stack.output()).toContain('port 4230 (dashboard-api) is already in use by another process');
      expect(stack.output()).not.toMatch(STACK_TRACE);
      expect(stack.output()).not.toMatch(/starting PostgreSQL/);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
