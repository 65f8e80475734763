/**
 * `pnpm start` / `pnpm dev`: the whole service on one machine. Starts (or reuses) the
 * embedded PostgreSQL unless DATABASE_URL is set (in a process of its own, out of reach of the
 * terminal's Ctrl-C: database-process.ts), applies the main database's migrations,
 * starts every app as its own process, waits for their health checks and prints the URLs.
 * It then supervises: an app or the embedded PostgreSQL that exits on its own is restarted
 * with backoff; only a crash loop or Ctrl-C stops the stack (apps first, then the database).
 * Data stays under .data/ for the next start.
 */
import { join } from 'node:path';
import { migrate, readDbEnv, repositoryRoot } from '@svc/db';
import { startDatabaseProcess, type StackDatabases } from './database.js';
import { loadDevSecrets } from './dev-secrets.js';
import { loadConfig } from './env.js';
import { firstTakenPort } from './ports.js';
import { startProcess, waitForHealth } from './processes.js';
import { keyshareNodes, stackPorts, stackServices } from './services.js';
import { claimSingleInstance } from './single-instance.js';
import { createSupervisor, type Part } from './supervisor.js';

const HEALTH_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;

/** Thrown to end start-up early with a message for the user, not a stack trace. */
class StartupStop extends Error {}

async function main(): Promise<number> {
  const root = repositoryRoot();
  const { dataDir, watch } = loadConfig(process.env, process.argv, root);
  const nodes = keyshareNodes();

  const instance = await claimSingleInstance(join(dataDir, 'stack.pid'));
  if (!instance.ok) {
    console.error(`pnpm start is already running (pid ${instance.pid}) on ${dataDir}; stop it first (Ctrl-C in its terminal, or kill ${instance.pid}).`);
    return 1;
  }
  process.once('exit', instance.release);

  // Ctrl-C from here on stops cleanly: during start-up the current step finishes (a migration
  // is one transaction either way), then what was started is stopped. A second Ctrl-C exits at once.
  let stopRequested: (() => void) | undefined;
  let stopping = false;
  const stopSignal = new Promise<void>((resolve) => (stopRequested = resolve));
  let firstSignalAt = 0;
  const onSignal = () => {
    // Ctrl-C can reach this process twice (from the terminal, and relayed by the pnpm that
    // runs it): only a signal well after the first one means "exit now".
    if (stopping) {
      if (Date.now() - firstSignalAt > 2000) process.exit(1);
      return;
    }
    firstSignalAt = Date.now();
    stopping = true;
    console.log('stopping...');
    stopRequested!();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const checkpoint = () => {
    if (stopping) throw new StartupStop('stopped during start-up');
  };

  const taken = await firstTakenPort(stackPorts());
  if (taken) {
    console.error(`port ${taken.port} (${taken.name}) is already in use by another process; stop that process and run pnpm start again.`);
    return 1;
  }

  const started = Date.now();
  let crashLoop = false;
  const supervisor = createSupervisor({
    log: (line) => console.error(`[stack] ${line}`),
    onCrashLoop: () => {
      crashLoop = true;
      onSignal();
    },
  });
  const env = readDbEnv();
  let database: StackDatabases | undefined;
  const postgres: Part = {
    name: 'PostgreSQL',
    layer: 0,
    async start() {
      const started = await startDatabaseProcess(nodes.map((n) => n.database)).catch((error: unknown) => {
        throw explainDatabaseError(error, env.embeddedPort);
      });
      database = started.databases;
      return { exited: started.exited, stop: started.stop };
    },
  };

  try {
    console.log('starting PostgreSQL...');
    await supervisor.add(postgres);
    console.log(`database ready (${database!.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})`);
    checkpoint();
    const migrated = await migrate(database!.url);
    console.log(`migrations: ${migrated.applied.length} applied, ${migrated.alreadyApplied} already in place`);
    checkpoint();

    const secrets = await loadDevSecrets(join(dataDir, 'dev-secrets.json'), nodes.map((n) => n.name));
    const specs = stackServices({
      mainDatabaseUrl: database!.url,
      nodeDatabaseUrls: new Map(Object.entries(database!.databases)),
      secrets,
      mailSpoolDir: join(dataDir, 'mail'),
    });
    for (const [i, spec] of specs.entries()) {
      checkpoint();
      await supervisor.add({
        name: spec.name,
        layer: 1,
        start: async () => {
          const p = startProcess(root, spec, i, watch);
          console.log(`[stack] started ${spec.name} (pid ${p.child.pid})`);
          return { exited: p.exited, stop: () => p.stop(STOP_GRACE_MS) };
        },
      });
    }
    const healthy = Promise.all(specs.map((s) => waitForHealth(`http://127.0.0.1:${s.port}/health`, HEALTH_TIMEOUT_MS)));
    await Promise.race([healthy, stopSignal]);
    checkpoint();

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`\nready in ${seconds}s`);
    console.log(`  gateway          http://localhost:4200   (docs: http://localhost:4200/docs)`);
    for (const s of specs.filter((s) => s.name !== 'gateway')) {
      console.log(`  ${s.name.padEnd(16)} http://localhost:${s.port}   (docs: http://localhost:${s.port}/docs)`);
    }
    console.log(`  mail (dev)       ${join(dataDir, 'mail')}`);
    console.log('Ctrl-C stops everything.');
    await stopSignal;
    await supervisor.stopAll();
    console.log('stopped');
    return crashLoop ? 1 : 0;
  } catch (error) {
    await supervisor.stopAll();
    if (error instanceof StartupStop || stopping) {
      console.log('stopped');
      return crashLoop ? 1 : 0;
    }
    console.error(error instanceof UserFacingError ? error.message : error);
    return 1;
  }
}

/** An error whose message is the whole story (no stack trace for the user). */
class UserFacingError extends Error {}

function explainDatabaseError(error: unknown, port: number): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/address already in use|could not create any TCP\/IP sockets/i.test(message)) {
    return new UserFacingError(`port ${port} (embedded PostgreSQL) is already in use by another process; stop it, or set EMBEDDED_PG_PORT to a free port.`);
  }
  return error instanceof Error ? error : new Error(message);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
