/**
 * `pnpm start` / `pnpm dev`: the whole service on one machine. Starts (or reuses) the
 * embedded PostgreSQL unless DATABASE_URL is set, applies the main database's migrations,
 * starts every app as its own process, waits for their health checks and prints the URLs.
 * Ctrl-C stops the apps, then the database; data stays under .data/ for the next start.
 */
import { join } from 'node:path';
import { ensureDatabase, migrate, repositoryRoot } from '@svc/db';
import { loadDevSecrets } from './dev-secrets.js';
import { loadConfig } from './env.js';
import { startProcess, waitForHealth, type RunningProcess } from './processes.js';
import { keyshareNodes, stackServices } from './services.js';

const HEALTH_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;

async function main(): Promise<void> {
  const root = repositoryRoot();
  const { dataDir, watch } = loadConfig(process.env, process.argv, root);
  const nodes = keyshareNodes();

  const started = Date.now();
  console.log('starting PostgreSQL...');
  const database = await ensureDatabase({ extraDatabases: nodes.map((n) => n.database) });
  console.log(`database ready (${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})`);
  const migrated = await migrate(database.url);
  console.log(`migrations: ${migrated.applied.length} applied, ${migrated.alreadyApplied} already in place`);

  const secrets = await loadDevSecrets(join(dataDir, 'dev-secrets.json'), nodes.map((n) => n.name));
  const specs = stackServices({
    mainDatabaseUrl: database.url,
    nodeDatabaseUrls: new Map(Object.entries(database.databases)),
    secrets,
    mailSpoolDir: join(dataDir, 'mail'),
  });

  const running: RunningProcess[] = specs.map((spec, i) => startProcess(root, spec, i, watch));
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('stopping...');
    for (const p of running) p.child.kill('SIGTERM');
    const timer = setTimeout(() => running.forEach((p) => p.child.kill('SIGKILL')), STOP_GRACE_MS);
    await Promise.all(running.map((p) => p.exited));
    clearTimeout(timer);
    await database.stop();
    console.log('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  for (const p of running) {
    void p.exited.then((code) => {
      if (!stopping && !watch) {
        console.error(`${p.spec.name} exited with code ${code}; stopping the stack`);
        void stop(1);
      }
    });
  }

  try {
    await Promise.all(specs.map((s) => waitForHealth(`http://127.0.0.1:${s.port}/health`, HEALTH_TIMEOUT_MS)));
  } catch (error) {
    console.error(String(error));
    await stop(1);
    return;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nready in ${seconds}s`);
  console.log(`  gateway          http://localhost:4200   (docs: http://localhost:4200/docs)`);
  for (const s of specs.filter((s) => s.name !== 'gateway')) {
    console.log(`  ${s.name.padEnd(16)} http://localhost:${s.port}   (docs: http://localhost:${s.port}/docs)`);
  }
  console.log(`  mail (dev)       ${join(dataDir, 'mail')}`);
  console.log('Ctrl-C stops everything.');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
