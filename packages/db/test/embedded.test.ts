import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/embedded.js';
import { ensureDatabase } from '../src/ensure-database.js';
import { connectionFields, withDatabase } from '../src/connection.js';
import { freePort } from '../src/free-port.js';

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-embedded-test-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

test('data survives a stop and a start, and a stale postmaster.pid after a crash does not block start-up', async () => {
  const dataDir = join(dir, 'postgres');
  const port = await freePort();

  const first = await startEmbeddedPostgres({ dataDir, port, persistent: true });
  expect(first.startedHere).toBe(true);
  const url = first.url('postgres');
  await sql(url, 'CREATE TABLE kept (value text)');
  await sql(url, "INSERT INTO kept VALUES ('still here')");
  await first.stop();

  // What a crash leaves behind: a lock file naming a process that no longer exists.
  await writeFile(join(dataDir, 'postmaster.pid'), `999999\n${dataDir}\n0\n${port}\n\n127.0.0.1\n`);

  const second = await startEmbeddedPostgres({ dataDir, port, persistent: true });
  try {
    expect(second.startedHere).toBe(true);
    expect(await sql(url, 'SELECT value FROM kept')).toEqual([{ value: 'still here' }]);
  } finally {
    await second.stop();
  }
});

test('a second start on a running data directory reuses that server and leaves it running', async () => {
  const dataDir = join(dir, 'postgres');
  const port = await freePort();
  const owner = await startEmbeddedPostgres({ dataDir, port, persistent: true });
  try {
    const guest = await startEmbeddedPostgres({ dataDir, port: port + 1, persistent: true });
    expect(guest.startedHere).toBe(false);
    expect(guest.port).toBe(port);
    await guest.stop();
    expect(await sql(owner.url('postgres'), 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  } finally {
    await owner.stop();
  }
});

test('ensureDatabase creates the main and extra databases once, embedded or through a DATABASE_URL', async () => {
  const port = await freePort();
  const options = { dataDir: join(dir, 'postgres'), port, databaseName: 'svc_main', extraDatabases: ['keyshare_node_1', 'keyshare_node_2'] };
  const embedded = await ensureDatabase(options);
  try {
    expect(embedded.embedded).toBe(true);
    expect(connectionFields(embedded.url)).toMatchObject({ host: '127.0.0.1', port, database: 'svc_main' });
    expect(Object.keys(embedded.databases)).toEqual(['keyshare_node_1', 'keyshare_node_2']);
    // Idempotent: the databases exist already.
    const again = await ensureDatabase(options);
    expect(again.url).toBe(embedded.url);
    await again.stop();

    // External server mode: same server reached by URL; extra databases named by swapping the database.
    const externalUrl = withDatabase(embedded.url, 'external_main');
    const external = await ensureDatabase({ databaseUrl: externalUrl, extraDatabases: ['keyshare_node_3'] });
    expect(external.embedded).toBe(false);
    expect(external.url).toBe(externalUrl);
    expect(external.databases.keyshare_node_3).toBe(withDatabase(embedded.url, 'keyshare_node_3'));
    const names = await sql<{ datname: string }>(embedded.url, 'SELECT datname FROM pg_database ORDER BY datname');
    expect(names.map((n) => n.datname)).toEqual(
      expect.arrayContaining(['svc_main', 'keyshare_node_1', 'keyshare_node_2', 'external_main', 'keyshare_node_3']),
    );
  } finally {
    await embedded.stop();
  }
});

test('a server that died (killed) reports it, still stops, and starts again with its data', async () => {
  const dataDir = join(dir, 'postgres');
  const port = await freePort();
  const first = await startEmbeddedPostgres({ dataDir, port, persistent: true });
  const url = first.url('postgres');
  await sql(url, 'CREATE TABLE kept (value text)');
  await sql(url, "INSERT INTO kept VALUES ('after a kill')");
  const pid = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  process.kill(pid, 'SIGKILL');
  await first.exited;
  let timer: NodeJS.Timeout | undefined;
  const stopped = await Promise.race([first.stop().then(() => 'stopped'), new Promise((r) => (timer = setTimeout(() => r('hung'), 5000)))]);
  clearTimeout(timer);
  expect(stopped).toBe('stopped');

  const second = await startEmbeddedPostgres({ dataDir, port, persistent: true });
  try {
    expect(await sql(url, 'SELECT value FROM kept')).toEqual([{ value: 'after a kill' }]);
  } finally {
    await second.stop();
  }
});
