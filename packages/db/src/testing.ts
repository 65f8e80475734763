import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from './client.js';
import { freePort } from './free-port.js';
import { startEmbeddedPostgres, type EmbeddedServer } from './embedded.js';
import { readDbEnv } from './env.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { MAIN_MIGRATIONS_DIR, migrate } from './migrate.js';
import { createDatabaseIfMissing, dropDatabase } from './server-admin.js';

/**
 * Real PostgreSQL for tests (import from `@svc/db/testing`).
 *
 * One server per test file: Jest gives every test file its own module registry, so the
 * server started by the first call in a file is shared by every later call in that file, and
 * each call gets its own fresh database on it. The server is a throwaway embedded cluster in
 * a temp directory on a free port, or, when DATABASE_URL is set, that server (each test
 * database then gets a unique name there and is dropped on stop()).
 */

export interface CreateDatabaseOptions {
  /** Apply the migrations in this directory (e.g. a key share node's prisma/migrations). */
  migrationsDir?: string;
}

export interface TestServer {
  /** Creates a fresh, uniquely named database and returns its URL; `name` is a readable hint. */
  createDatabase(name: string, options?: CreateDatabaseOptions): Promise<string>;
  /** Drops the databases this handle created; stops the server once no handle uses it. */
  stop(): Promise<void>;
}

export interface TestDatabase extends TestServer {
  /** URL of a fresh database with the main migrations applied. */
  url: string;
  /** Prisma client on `url`; disconnected by stop(). */
  db: PrismaClient;
}

interface SharedServer {
  /** URL of the server's maintenance database. */
  adminUrl: string;
  embedded?: EmbeddedServer;
  tempDir?: string;
  users: number;
}

let shared: Promise<SharedServer> | undefined;
let counter = 0;

/**
 * A fresh database with the main schema, and a handle to make more databases on the same
 * server. Call stop() in afterAll.
 *
 * ```ts
 * let t: TestDatabase;
 * beforeAll(async () => { t = await startTestDatabase(); });
 * afterAll(() => t.stop());
 * ```
 */
export async function startTestDatabase(): Promise<TestDatabase> {
  const server = await startTestServer();
  try {
    const url = await server.createDatabase('main', { migrationsDir: MAIN_MIGRATIONS_DIR });
    const db = createDb(url, { maxConnections: 5 });
    return {
      url,
      db,
      createDatabase: server.createDatabase,
      stop: async () => {
        await db.$disconnect();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The test server alone, for tests that only need other schemas (e.g. a key share node's). */
export async function startTestServer(): Promise<TestServer> {
  shared ??= acquireServer();
  let server: SharedServer;
  try {
    server = await shared;
  } catch (error) {
    shared = undefined;
    throw error;
  }
  server.users += 1;
  const created: string[] = [];
  let stopped = false;

  const createDatabase = async (name: string, options: CreateDatabaseOptions = {}): Promise<string> => {
    const hint = name.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 30);
    // Unique across Jest workers and runs sharing one DATABASE_URL server.
    const unique = `t_${hint}_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
    const url = await createDatabaseIfMissing(server.adminUrl, unique);
    created.push(unique);
    if (options.migrationsDir) await migrate(url, { migrationsDir: options.migrationsDir });
    return url;
  };

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    server.users -= 1;
    if (server.users === 0 && server.embedded) {
      // Dropping one by one is pointless when the whole cluster is deleted.
      shared = undefined;
      await server.embedded.stop();
      if (server.tempDir) await rm(server.tempDir, { recursive: true, force: true });
      return;
    }
    for (const name of created) await dropDatabase(server.adminUrl, name);
  };

  return { createDatabase, stop };
}

async function acquireServer(): Promise<SharedServer> {
  const external = readDbEnv().databaseUrl;
  if (external) return { adminUrl: external, users: 0 };

  const tempDir = await mkdtemp(join(tmpdir(), 'svc-test-pg-'));
  let lastError: unknown;
  // A free port can be taken by someone else between probing and binding: retry.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const embedded = await startEmbeddedPostgres({
        dataDir: join(tempDir, 'data'),
        port: await freePort(),
        persistent: false,
      });
      return { adminUrl: embedded.url('postgres'), embedded, tempDir, users: 0 };
    } catch (error) {
      lastError = error;
    }
  }
  await rm(tempDir, { recursive: true, force: true });
  throw lastError;
}

export { freePort } from './free-port.js';
export { startFaultProxy, type FaultProxy } from './fault-proxy.js';
