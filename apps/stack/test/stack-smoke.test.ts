import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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

/** Spawns the stack exactly as `pnpm start` does, on a throwaway data directory. */
describe('pnpm start', () => {
  it('starts the whole stack, answers /health on the gateway and every node, and stops cleanly', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'stack-'));
    const output: string[] = [];
    const child = spawn(join(appDir, '..', '..', 'node_modules', '.bin', 'tsx'), ['src/main.ts'], {
      cwd: appDir,
      env: {
        ...process.env,
        DATABASE_URL: '',
        STACK_DATA_DIR: dataDir,
        EMBEDDED_PG_DATA_DIR: join(dataDir, 'postgres'),
        EMBEDDED_PG_PORT: String(await freePort()),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => output.push(String(d)));
    child.stderr.on('data', (d) => output.push(String(d)));
    const exited = new Promise<number | null>((res) => child.once('exit', res));
    try {
      const deadline = Date.now() + 90_000;
      while (!/ready in \d/.test(output.join('')) && Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`stack exited early:\n${output.join('')}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(output.join('')).toMatch(/ready in \d/);
      for (const port of [4200, 4201, 4202, 4203, 4210, 4220, 4230]) {
        expect(await healthy(`http://127.0.0.1:${port}/health`)).toBe(true);
      }
      expect((await getText('http://127.0.0.1:4200/docs/')).body).toContain('swagger-ui');
    } finally {
      child.kill('SIGINT');
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise((r) => (timer = setTimeout(() => r('timeout'), 30_000)))]);
      clearTimeout(timer);
      await rm(dataDir, { recursive: true, force: true });
      expect(code).toBe(0);
    }
    for (const port of [4200, 4201, 4210]) expect(await healthy(`http://127.0.0.1:${port}/health`)).toBe(false);
  }, 150_000);
});
