import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectionFields } from './connection.js';
import { startEmbeddedPostgres } from './embedded.js';
import { readDbEnv } from './env.js';
import { createDatabaseIfMissing } from './server-admin.js';

export interface EnsureDatabaseOptions {
  /** Main database name on the embedded server (default "svc_main"); with DATABASE_URL, the URL's own database is used. */
  databaseName?: string;
  /** Further databases on the same server, e.g. the key share nodes' ["keyshare_node_1", ...]. */
  extraDatabases?: string[];
  /** External server; default DATABASE_URL. When unset, the embedded server is started. */
  databaseUrl?: string;
  /** Embedded data directory; default EMBEDDED_PG_DATA_DIR, else <repo>/.data/postgres. */
  dataDir?: string;
  /** Embedded port; default EMBEDDED_PG_PORT, else 5433. */
  port?: number;
  onLog?: (line: string) => void;
}

export interface EnsuredDatabases {
  /** URL of the main database. */
  url: string;
  /** URL of every extra database, by name. */
  databases: Record<string, string>;
  /** True when the embedded server is in use (started here or found running). */
  embedded: boolean;
  /** Stops the embedded server if this call started it; nothing otherwise. */
  stop(): Promise<void>;
  /** Resolves if the embedded server this call started exits (killed, crashed); never otherwise. */
  exited: Promise<void>;
}

export const DEFAULT_DATABASE_NAME = 'svc_main';

/**
 * Makes the databases a process needs exist, and says where they are.
 * - DATABASE_URL set: that server; extra databases are the same URL with another database
 *   name, created when missing if the role may.
 * - unset: the embedded PostgreSQL with persistent data (initialised on first use only).
 * Migrations are not applied here: call migrate(url) next.
 */
export async function ensureDatabase(options: EnsureDatabaseOptions = {}): Promise<EnsuredDatabases> {
  const env = readDbEnv();
  const extra = options.extraDatabases ?? [];
  const externalUrl = options.databaseUrl ?? env.databaseUrl;

  if (externalUrl) {
    const mainName = connectionFields(externalUrl).database;
    const url = await createDatabaseIfMissing(externalUrl, mainName);
    const databases = await createAll(externalUrl, extra);
    return { url, databases, embedded: false, stop: async () => undefined, exited: new Promise<void>(() => undefined) };
  }

  const server = await startEmbeddedPostgres({
    dataDir: options.dataDir ?? env.embeddedDataDir ?? join(repositoryRoot(), '.data', 'postgres'),
    port: options.port ?? env.embeddedPort,
    persistent: true,
    onLog: options.onLog,
  });
  try {
    const adminUrl = server.url('postgres');
    const url = await createDatabaseIfMissing(adminUrl, options.databaseName ?? DEFAULT_DATABASE_NAME);
    const databases = await createAll(adminUrl, extra);
    return { url, databases, embedded: true, stop: () => server.stop(), exited: server.exited };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function createAll(serverUrl: string, names: string[]): Promise<Record<string, string>> {
  const databases: Record<string, string> = {};
  for (const name of names) databases[name] = await createDatabaseIfMissing(serverUrl, name);
  return databases;
}

/** The workspace root (where pnpm-workspace.yaml is), so .data/ is the same for every app. */
export function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = resolve(dir, '..');
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}
