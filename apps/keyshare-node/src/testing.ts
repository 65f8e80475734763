// Test support (import from '@svc/keyshare-node/testing'): real key share nodes on loopback,
// each with its own fresh database, for this app's tests and for tss-api's.
import { generateShareKey } from '@svc/share-cipher';
import { createLogger, listen, type RunningServer } from '@svc/http';
import { freePort, startTestServer, type TestServer } from '@svc/db/testing';
import { createApp } from './app.js';
import { createNodeDb, KEYSHARE_MIGRATIONS_DIR, type NodeDb } from './kernel/database.js';
import { loadConfig } from './env.js';
import type { VerifyIdToken } from './kernel/id-token.js';
import { loadNodeIdentity } from './kernel/identity.js';

export interface TestNode {
  name: string;
  /** http://127.0.0.1:<port>; stays the same across restarts. */
  endpoint: string;
  /** The node's own database (direct access for assertions). */
  readonly db: NodeDb;
  readonly running: boolean;
  /** Takes the node down (connections refused), keeping its database. */
  stop(): Promise<void>;
  /** Starts it again on the same port; `wipe` gives it a brand new empty database (data loss). */
  start(options?: { wipe?: boolean }): Promise<void>;
}

export interface TestNodes {
  nodes: TestNode[];
  node(name: string): TestNode;
  stop(): Promise<void>;
}

export interface StartTestNodesOptions {
  names: string[];
  verifyIdToken: VerifyIdToken;
  /** Extra configuration variables for every node (e.g. KS_RATE_LIMIT_CHECK_PER_MINUTE). */
  env?: Record<string, string>;
  /** A database server to use; default: one started here (and stopped by stop()). */
  server?: TestServer;
}

export async function startTestNodes(options: StartTestNodesOptions): Promise<TestNodes> {
  const server = options.server ?? (await startTestServer());
  const logger = createLogger('keyshare-node-test', 'silent');
  const nodes: TestNode[] = [];
  for (const name of options.names) {
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      KS_NODE_NAME: name,
      PORT: String(port),
      PUBLIC_URL: endpoint,
      SHARE_ENCRYPTION_KEYS: generateShareKey('k1'),
      ...options.env,
    });
    const cipher = config.shareCipher();
    let db: NodeDb | undefined;
    let running: RunningServer | undefined;
    const node: TestNode = {
      name,
      endpoint,
      get db() {
        if (!db) throw new Error(`${name} has no database yet`);
        return db;
      },
      get running() {
        return running !== undefined;
      },
      async stop() {
        await running?.close(100);
        running = undefined;
      },
      async start({ wipe = false } = {}) {
        if (running) throw new Error(`${name} is already running`);
        if (!db || wipe) {
          await db?.$disconnect();
          db = createNodeDb(await server.createDatabase(`ks_${name}`, { migrationsDir: KEYSHARE_MIGRATIONS_DIR }), { maxConnections: 5 });
        }
        const identity = await loadNodeIdentity(db, cipher, undefined);
        const { app } = createApp({ config, db, cipher, identity, verifyIdToken: options.verifyIdToken, logger });
        running = await listen(app, port, '127.0.0.1');
      },
    };
    await node.start();
    nodes.push(node);
  }
  return {
    nodes,
    node: (name) => {
      const found = nodes.find((n) => n.name === name);
      if (!found) throw new Error(`no test node ${name}`);
      return found;
    },
    stop: async () => {
      for (const n of nodes) {
        await n.stop();
        await n.db.$disconnect();
      }
      if (!options.server) await server.stop();
    },
  };
}

