import { randomBytes, randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { postgresCpuMeter } from '@svc/tooling/process-cpu';
import { createDb, directSql, Prisma, type PrismaClient } from '../src/index.js';
import { startTestDatabase } from '../src/testing.js';

// pnpm bench:db: the database statements of one Ed25519 signature (two revocation checks, the
// wallet lookup, the session insert, the claim), run three ways on one embedded PostgreSQL:
// Prisma's $queryRaw (the baseline), directSql unnamed, directSql with prepared statements.
// Printed per signature: this process's CPU, PostgreSQL's CPU (all its processes, /proc) and
// wall time, each also as a ratio to the baseline measured in the same run. Last, the prepared
// path again with idle gaps between signatures, as a ratio to the back-to-back figure.

type Run = (query: Prisma.Sql) => Promise<unknown>;

function signatureStatements(run: Run, userId: string, walletId: string) {
  return async () => {
    const revoked = Prisma.sql`SELECT 1 FROM revoked_tokens WHERE jti = ${'bench-jti'}`;
    await run(revoked);
    await run(Prisma.sql`
      SELECT s.signing_enabled, w.id, w.public_key, w.server_share_ciphertext, w.server_share_key_id
      FROM (SELECT COALESCE((SELECT signing_enabled FROM tss_activation_settings WHERE id = 1), true) AS signing_enabled) s
      LEFT JOIN wallets w ON w.user_id = ${userId}::uuid AND w.curve = 'ed25519'::curve`);
    const id = randomUUID();
    await run(Prisma.sql`
      WITH s AS (
        INSERT INTO tss_sessions (id, user_id, wallet_id, kind, status, state, state_version, expires_at, updated_at)
        VALUES (${id}::uuid, ${userId}::uuid, ${walletId}::uuid, 'SIGN_ED25519', 'ACTIVE', ${JSON.stringify({ v: 1, msg_hash: 'ab'.repeat(32), nonces: 'sealed'.repeat(40) })}::jsonb, 1,
                ${new Date(Date.now() + 60_000)}, now())
        RETURNING id)
      INSERT INTO tss_stages (id, session_id, name, status, completed_at, updated_at)
      SELECT ${randomUUID()}::uuid, id, 'round1', 'COMPLETED', now(), now() FROM s`);
    await run(revoked);
    // The claim as round 2 runs it (apps/tss-api/src/kernel/sessions/claim.ts): lock, take the
    // nonces, complete, and write the round2 stage and the audit row in the same statement.
    await run(Prisma.sql`
      WITH old AS (
        SELECT id, user_id, wallet_id, state FROM tss_sessions
        WHERE id = ${id}::uuid AND user_id = ${userId}::uuid AND kind = 'SIGN_ED25519'::tss_session_kind
          AND status = 'ACTIVE' AND expires_at > now() AND state ? ${'nonces'}::text
        FOR UPDATE
      ), upd AS (
        UPDATE tss_sessions t SET state = t.state - ${'nonces'}::text, status = 'COMPLETED', completed_at = now(),
               state_version = t.state_version + 1, updated_at = now()
        FROM old WHERE t.id = old.id AND t.status = 'ACTIVE' AND t.state ? ${'nonces'}::text
        RETURNING t.id, t.state_version
      ), stage AS (
        INSERT INTO tss_stages (id, session_id, name, status, completed_at, updated_at)
        SELECT gen_random_uuid(), id, ${'round2'}, 'COMPLETED', now(), now() FROM upd
      ), audit AS (
        INSERT INTO signature_audit_logs (id, wallet_id, session_id, curve, message_hash)
        SELECT gen_random_uuid(), old.wallet_id, old.id, ${'ed25519'}::curve, old.state->>'msg_hash' FROM upd JOIN old ON old.id = upd.id
      )
      SELECT old.id::text AS session_id, upd.state_version, old.state, w.public_key, w.server_share_ciphertext
      FROM old JOIN upd ON upd.id = old.id JOIN wallets w ON w.id = old.wallet_id`);
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Per signature: CPU of this process and of PostgreSQL, and wall time (the gaps left out). */
async function measure(label: string, one: () => Promise<void>, n: number, gapMs = 0) {
  for (let i = 0; i < 200; i++) await one();
  const postgresCpu = postgresCpuMeter();
  const cpu0 = process.cpuUsage();
  let busy = 0;
  for (let i = 0; i < n; i++) {
    if (gapMs) await sleep(gapMs);
    const t0 = performance.now();
    await one();
    busy += performance.now() - t0;
  }
  const c = process.cpuUsage(cpu0);
  return { label, node: (c.user + c.system) / 1000 / n, postgres: postgresCpu() / n, wall: busy / n };
}

const n = Number(process.env.BENCH_DB_N ?? 2000);
/** Idle time between signatures in the spaced measurement: about a sequential signature's round trip. */
const GAP_MS = 20;
const t = await startTestDatabase();
const unnamed: PrismaClient = createDb(t.url, { preparedStatements: false });
const user = await t.db.user.create({ data: { email: 'bench@example.test', authType: 'EMAIL', providerSubject: randomUUID() } });
const wallet = await t.db.wallet.create({
  data: { userId: user.id, curve: 'ed25519', publicKey: randomBytes(32).toString('hex'), serverShareCiphertext: randomBytes(80), serverShareKeyId: 'k', seedPartCiphertext: randomBytes(40), seedPartKeyId: 'k' },
});
// Each DirectSql made once, as the apps' repositories do.
const [unnamedSql, preparedSql] = [directSql(unnamed), directSql(t.db)];
const paths: [string, Run][] = [
  ['Prisma $queryRaw', (q) => t.db.$queryRaw(q)],
  ['directSql, unnamed', (q) => unnamedSql.rows(q)],
  ['directSql, prepared', (q) => preparedSql.rows(q)],
];
const prepared = paths.at(-1)!;
console.log(`pnpm bench:db — the five statements of one Ed25519 signature, n=${n} per path, 2 rounds; ${cpus().length} CPUs, Node ${process.version}`);
type Result = Awaited<ReturnType<typeof measure>>;
const ratio = (v: number, b: number) => (Number.isFinite(v) ? `${v.toFixed(3)} ms (${(v / b).toFixed(2)}x)` : 'n/a');
const print = (prefix: string, r: Result, base: Result) =>
  console.log(`${prefix}  ${r.label.padEnd(21)} node CPU ${ratio(r.node, base.node)}  PostgreSQL CPU ${ratio(r.postgres, base.postgres)}  wall ${ratio(r.wall, base.wall)}`);
let backToBack: Result | undefined;
for (let round = 1; round <= 2; round++) {
  const results = [];
  for (const [label, run] of paths) results.push(await measure(label, signatureStatements(run, user.id, wallet.id), n));
  for (const r of results) print(`round ${round}`, r, results[0]!);
  backToBack = results.at(-1);
}
// The same prepared statements with the machine idle between signatures, as a sequential client
// leaves the database between its calls: each signature then meets a backend (and a process
// here) whose caches went cold, and pays for waking up. Ratio to the back-to-back figure above.
const spacedN = Math.min(n, 300);
const spaced = await measure(`prepared, ${GAP_MS} ms apart`, signatureStatements(prepared[1], user.id, wallet.id), spacedN, GAP_MS);
print('spaced ', spaced, backToBack!);
await unnamed.$disconnect();
await t.stop();
