import { EnvReader } from '@svc/config';
import pg from 'pg';
import { prepareDatabase, readDatabaseConfig } from '../src/index.js';
import { startTestServer, type TestServer } from '../src/testing.js';

async function tableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`);
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

describe('prepareDatabase', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('reads DATABASE_URL, MIGRATE_ON_START (default true), the database timeouts and DB_PREPARED_STATEMENTS (default true)', () => {
    expect(readDatabaseConfig(new EnvReader({}))).toEqual({ migrateOnStart: true, pool: { connectTimeoutMs: 5000, statementTimeoutMs: 10_000, preparedStatements: true } });
    expect(
      readDatabaseConfig(new EnvReader({ DATABASE_URL: 'postgres://u@h/db', MIGRATE_ON_START: 'false', DB_CONNECT_TIMEOUT_MS: '800', DB_STATEMENT_TIMEOUT_MS: '2500', DB_PREPARED_STATEMENTS: 'false' })),
    ).toEqual({
      databaseUrl: 'postgres://u@h/db',
      migrateOnStart: false,
      pool: { connectTimeoutMs: 800, statementTimeoutMs: 2500, preparedStatements: false },
    });
    const bad = new EnvReader({ DB_STATEMENT_TIMEOUT_MS: '0' });
    readDatabaseConfig(bad);
    expect(() => bad.done()).toThrow(/DB_STATEMENT_TIMEOUT_MS/);
  });

  it('applies the migrations only when MIGRATE_ON_START allows', async () => {
    const skipped = await prepareDatabase({ databaseUrl: await server.createDatabase('prep_skip'), migrateOnStart: false });
    expect(await tableCount(skipped.url)).toBe(0);
    const migrated = await prepareDatabase({ databaseUrl: await server.createDatabase('prep_run'), migrateOnStart: true });
    expect(await tableCount(migrated.url)).toBeGreaterThan(10);
  });
});
