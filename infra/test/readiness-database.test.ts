/**
 * The orchestrator's readiness contract: /ready answers 503 while the database is
 * unreachable and 200 again once it is back, without restarting the process (the pool
 * reconnects). The app is the shared @svc/http kit with the readiness check every
 * database-backed app uses (@svc/db pingDb: SELECT 1), against a real PostgreSQL that the
 * test stops and starts again on the same data directory and port.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, pingDb, startEmbeddedPostgres, type EmbeddedServer, type PrismaClient } from '@svc/db';
import { createLogger, createServiceApp, listen, type RunningServer } from '@svc/http';
import { freePort } from './child-process.js';

let dataDir: string;
let pgPort: number;
let pg: EmbeddedServer;
let db: PrismaClient;
let server: RunningServer;
let base: string;

const startPg = () => startEmbeddedPostgres({ dataDir, port: pgPort, persistent: true });

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'svc-ready-')), 'pg');
  pgPort = await freePort();
  pg = await startPg();
  db = createDb(pg.url('postgres'));
  const { app } = createServiceApp({
    name: 'readiness-probe',
    routes: [],
    logger: createLogger('readiness-probe', 'silent'),
    ready: async () => {
      if (!(await pingDb(db, 1000))) throw new Error('database unreachable');
    },
  });
  server = await listen(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}`;
}, 120_000);

afterAll(async () => {
  await server?.close(1000);
  await db?.$disconnect();
  await pg?.stop();
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

async function readyStatus(): Promise<number> {
  return (await fetch(`${base}/ready`)).status;
}

async function waitForStatus(expected: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let status = await readyStatus();
  while (status !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    status = await readyStatus();
  }
  return status;
}

test('/ready follows the database down and back up while /health stays 200', async () => {
  expect(await readyStatus()).toBe(200);

  await pg.stop();
  expect(await waitForStatus(503, 10_000)).toBe(503);
  const down = await fetch(`${base}/ready`);
  expect(await down.json()).toEqual({ success: false, code: 'NOT_READY', msg: 'Service is not ready' });
  // Liveness must not follow the database: a restart would not bring it back.
  expect((await fetch(`${base}/health`)).status).toBe(200);

  pg = await startPg();
  expect(await waitForStatus(200, 15_000)).toBe(200);
  expect(await (await fetch(`${base}/ready`)).json()).toEqual({ success: true, data: { status: 'ready' } });
}, 60_000);
