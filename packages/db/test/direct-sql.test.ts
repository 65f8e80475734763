import { randomBytes } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { createDb, directSql, isDatabaseUnavailable, isUniqueViolation, Prisma, PrismaClient, uniqueViolationFields, type DirectSql } from '../src/index.js';
import { startTestDatabase, type TestDatabase } from '../src/testing.js';

let t: TestDatabase;
let sql: DirectSql;
beforeAll(async () => {
  t = await startTestDatabase();
  sql = directSql(t.db);
});
afterAll(() => t.stop());

test('composed statements run with their values as parameters, and rows come as node-postgres parses them', async () => {
  const bytes = randomBytes(17);
  const when = new Date('2026-01-02T03:04:05.678Z');
  const filter = (on: boolean) => (on ? Prisma.sql`WHERE n > ${1}` : Prisma.empty);
  const rows = await sql.rows<{ n: number; b: Uint8Array; j: unknown; d: Date; s: string; u: string }>(Prisma.sql`
    SELECT n, ${bytes}::bytea AS b, ${JSON.stringify({ a: [1, 'x'] })}::jsonb AS j, ${when}::timestamptz AS d,
           ${"'; DROP TABLE users; --"}::text AS s, gen_random_uuid()::text AS u
    FROM generate_series(1, 3) AS n ${filter(true)} ORDER BY n`);
  expect(rows.map((r) => r.n)).toEqual([2, 3]);
  expect(Buffer.from(rows[0]!.b).equals(bytes)).toBe(true);
  expect(rows[0]!.j).toEqual({ a: [1, 'x'] });
  expect(rows[0]!.d.toISOString()).toBe(when.toISOString());
  expect(rows[0]!.s).toBe("'; DROP TABLE users; --");
  expect(rows[0]!.u).toMatch(/^[0-9a-f-]{36}$/);
  expect(await sql.rows(Prisma.sql`SELECT 1 AS one ${filter(false)}`)).toEqual([{ one: 1 }]);
});

test('execute answers the number of rows the statement changed, and the change is visible to Prisma', async () => {
  const jti = `direct-${randomBytes(8).toString('hex')}`;
  const expiresAt = new Date(Date.now() + 60_000);
  expect(await sql.execute(Prisma.sql`INSERT INTO revoked_tokens (jti, expires_at) VALUES (${jti}, ${expiresAt})`)).toBe(1);
  expect(await sql.execute(Prisma.sql`DELETE FROM revoked_tokens WHERE jti = ${'no-such-jti'}`)).toBe(0);
  const row = await t.db.revokedToken.findUnique({ where: { jti } });
  expect(row?.expiresAt.toISOString()).toBe(expiresAt.toISOString());
});

test("a unique violation of a direct statement is recognised as one, with the constraint's columns", async () => {
  const jti = `dup-${randomBytes(8).toString('hex')}`;
  const insert = Prisma.sql`INSERT INTO revoked_tokens (jti, expires_at) VALUES (${jti}, now())`;
  await sql.execute(insert);
  const error = await sql.execute(insert).then(() => undefined, (e: unknown) => e);
  expect(uniqueViolationFields(error)).toEqual(['jti']);
  expect(isUniqueViolation(error, 'jti')).toBe(true);
  expect(isUniqueViolation(error, 'expires_at')).toBe(false);

  const user = { email: 'u@example.test', authType: 'EMAIL' as const, providerSubject: randomBytes(8).toString('hex') };
  await t.db.user.create({ data: user });
  const twin = Prisma.sql`INSERT INTO users (id, email, auth_type, provider_subject, updated_at)
    VALUES (gen_random_uuid(), ${user.email}, ${user.authType}::auth_type, ${user.providerSubject}, now())`;
  const composite = await sql.execute(twin).then(() => undefined, (e: unknown) => e);
  expect(uniqueViolationFields(composite)).toEqual(['auth_type', 'provider_subject']);
  // Other database errors are not unique violations.
  const other = await sql.rows(Prisma.sql`SELECT 1/0`).then(() => undefined, (e: unknown) => e);
  expect(other).toBeDefined();
  expect(isUniqueViolation(other)).toBe(false);
});

describe('prepared statements', () => {
  const preparedHere = (sql: DirectSql) =>
    sql.rows<{ statement: string }>(Prisma.sql`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'svc_%'`);

  test('each statement is prepared once per connection, and not at all with preparedStatements off', async () => {
    // One connection, so every statement below runs in the same PostgreSQL session.
    const named = createDb(t.url, { maxConnections: 1 });
    const unnamed = createDb(t.url, { maxConnections: 1, preparedStatements: false });
    try {
      for (let i = 0; i < 3; i++) expect(await directSql(named).rows(Prisma.sql`SELECT ${i}::int AS i`)).toEqual([{ i }]);
      const statements = (await preparedHere(directSql(named))).map((r) => r.statement);
      expect(statements.filter((s) => s.includes('SELECT $1::int AS i'))).toHaveLength(1);

      await directSql(unnamed).rows(Prisma.sql`SELECT ${1}::int AS i`);
      expect(await preparedHere(directSql(unnamed))).toEqual([]);
    } finally {
      await named.$disconnect();
      await unnamed.$disconnect();
    }
  });

  test('a migration that changes a prepared result: one retryable 503, then the connection is prepared afresh', async () => {
    const db = createDb(t.url, { maxConnections: 1 });
    try {
      const sql = directSql(db);
      await sql.execute(Prisma.sql`CREATE TABLE plan_probe (a int)`);
      await sql.execute(Prisma.sql`INSERT INTO plan_probe VALUES (7)`);
      const read = Prisma.sql`SELECT a FROM plan_probe WHERE a IS NOT NULL`;
      expect(await sql.rows(read)).toEqual([{ a: 7 }]);
      await sql.execute(Prisma.sql`ALTER TABLE plan_probe ALTER COLUMN a TYPE text`);
      const stale = await sql.rows(read).then(() => undefined, (e: unknown) => e);
      expect(isDatabaseUnavailable(stale)).toBe(true);
      expect(await sql.rows(read)).toEqual([{ a: '7' }]);
    } finally {
      await db.$disconnect();
    }
  });
});

test('a client that createDb did not make has no pool to share: refused, not a second pool', () => {
  const other = new PrismaClient({ adapter: new PrismaPg({ connectionString: t.url }) });
  expect(() => directSql(other)).toThrow(/createDb/);
});
