/**
 * SIGTERM drains every app with a database, as Kubernetes and Ctrl-C rely on: requests in
 * flight complete, new connections are refused, and the process exits 0 within the grace
 * period (10 s, @svc/http's default). Each app runs as its own process, as under `pnpm start`,
 * on a real PostgreSQL. To hold requests in flight deterministically, the table they read is
 * locked from another connection until after the signal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDb, type PrismaClient } from '@svc/db';
import { freePort, startTestServer, type TestServer } from '@svc/db/testing';
import { loadDevSecrets } from '../src/dev-secrets.js';
import { keyshareNodes, stackServices, type ServiceSpec } from '../src/services.js';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const GRACE_MS = 10_000;
/** As many requests as the app's pool has connections, so that every one is seen waiting on the lock. */
const IN_FLIGHT = 10;
// The ed25519 base point: a valid public key that no node holds a share for.
const SOME_PUBLIC_KEY = '5866666666666666666666666666666666666666666666666666666666666666';

interface Case {
  service: string;
  table: string;
  path: string;
  body: (i: number) => unknown;
  status: number;
}

const CASES: Case[] = [
  { service: 'tss-api', table: 'users', path: '/tss/v1/user/check', body: (i) => ({ email: `drain${i}@example.com` }), status: 200 },
  { service: 'admin-api', table: 'admin_users', path: '/svc_admin/v1/user/login', body: (i) => ({ email: `nobody${i}@example.com`, password: 'not the password 1' }), status: 401 },
  {
    service: 'dashboard-api',
    table: 'customer_dashboard_users',
    path: '/customer_dashboard/v1/customer/auth/signin',
    body: (i) => ({ email: `nobody${i}@example.com`, password: 'not the password 1' }),
    status: 401,
  },
  { service: 'node-1', table: 'key_shares', path: '/keyshare/v1/check', body: () => ({ curve_type: 'ed25519', public_key: SOME_PUBLIC_KEY }), status: 200 },
];

/** POST without keep-alive; resolves with the status, or the socket error's code. */
function post(base: string, path: string, body: unknown): Promise<number | string> {
  return new Promise((done) => {
    const req = httpRequest(`${base}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    req.end(JSON.stringify(body));
  });
}

async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let server: TestServer;
let dataDir: string;
let specs: ServiceSpec[];

beforeAll(async () => {
  server = await startTestServer();
  dataDir = await mkdtemp(join(tmpdir(), 'stack-drain-'));
  const nodes = keyshareNodes();
  const secrets = await loadDevSecrets(join(dataDir, 'dev-secrets.json'), nodes.map((n) => n.name));
  specs = stackServices({ mainDatabaseUrl: '', nodeDatabaseUrls: new Map(), secrets, mailSpoolDir: join(dataDir, 'mail') });
});
afterAll(async () => {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe.each(CASES)('SIGTERM on $service', ({ service, table, path, body, status }) => {
  let child: ChildProcess | undefined;
  let db: PrismaClient | undefined;
  afterEach(async () => {
    child?.kill('SIGKILL');
    await db?.$disconnect();
  });

  it(`lets ${IN_FLIGHT} in-flight requests finish, refuses new connections, and exits 0 within the grace period`, async () => {
    const spec = specs.find((s) => s.name === service)!;
    const url = await server.createDatabase(service);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
      cwd: join(repoRoot, 'apps', spec.app),
      env: { ...process.env, ...spec.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DB_CONNECT_TIMEOUT_MS: '30000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += String(d)));
    child.stderr!.on('data', (d) => (output += String(d)));
    const exited = new Promise<{ code: number | null; at: number }>((done) => child!.once('exit', (code) => done({ code, at: Date.now() })));
    await until(async () => (await post(base, '/health', {})) !== 'ECONNREFUSED' || child!.exitCode !== null, `${service} to listen`);
    expect(child.exitCode).toBeNull();

    db = createDb(url, { maxConnections: 2 });
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const lock = db.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
        await released;
      },
      { timeout: 60_000 },
    );
    await until(async () => {
      const [row] = await db!.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE relation = ${table}::regclass AND granted`;
      return row!.n > 0;
    }, 'the lock');

    const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) => post(base, path, body(i)));
    await until(async () => {
      const [row] = await db!.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE relation = ${table}::regclass AND NOT granted`;
      return row!.n >= IN_FLIGHT;
    }, 'every request to wait on the lock');

    const signalledAt = Date.now();
    child.kill('SIGTERM');
    await until(() => output.includes('shutting down'), 'the shutdown to start', GRACE_MS);
    expect(await post(base, path, body(99))).toBe('ECONNREFUSED');
    expect(child.exitCode).toBeNull(); // still draining

    release();
    await lock;
    expect(await Promise.all(inFlight)).toEqual(Array(IN_FLIGHT).fill(status));
    const { code, at } = await exited;
    expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('shutting down') });
    expect(at - signalledAt).toBeLessThan(GRACE_MS);
  }, 120_000);
});
