import pg from 'pg';
import { connectionFields, withDatabase } from './connection.js';

/**
 * Database-level administration on a server (CREATE / DROP DATABASE), done over a connection
 * to a maintenance database because a database cannot be created from inside itself.
 */

const DUPLICATE_DATABASE = '42P04';
const INSUFFICIENT_PRIVILEGE = '42501';
const INVALID_CATALOG_NAME = '3D000';

async function withClient<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(connectionFields(url));
  client.on('error', () => undefined); // the pending query rejects; see migrate()
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

/**
 * Connects to some database of the server `url` points at that exists: the URL's own, then
 * `postgres`, then `template1`.
 */
async function withMaintenanceClient<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const candidates = [url, withDatabase(url, 'postgres'), withDatabase(url, 'template1')];
  let lastError: unknown;
  for (const candidate of candidates) {
    try {
      return await withClient(candidate, body);
    } catch (error) {
      if ((error as { code?: string }).code !== INVALID_CATALOG_NAME) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

export async function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  return withMaintenanceClient(serverUrl, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return (rowCount ?? 0) > 0;
  });
}

/**
 * Creates database `name` on the server `serverUrl` points at unless it exists, and returns
 * its URL. Without CREATEDB privilege, an existing database is fine and a missing one is a
 * clear error.
 */
export async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<string> {
  const url = withDatabase(serverUrl, name);
  if (await databaseExists(serverUrl, name)) return url;
  await withMaintenanceClient(serverUrl, async (client) => {
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } catch (error) {
      const code = (error as { code?: string }).code;
      // Another process created it between the check and here.
      if (code === DUPLICATE_DATABASE) return;
      if (code === INSUFFICIENT_PRIVILEGE) {
        throw new Error(`database "${name}" does not exist and this role may not create it; create it, or grant CREATEDB`, { cause: error });
      }
      throw error;
    }
  });
  return url;
}

/** Drops database `name`, closing other sessions on it first (test clean-up). */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withMaintenanceClient(withDatabase(serverUrl, 'postgres'), async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  });
}
