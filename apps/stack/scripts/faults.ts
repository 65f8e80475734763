/**
 * `pnpm test:faults`: fault injection against a real `pnpm start` stack (its own temporary data
 * directory and PostgreSQL port; the apps on their usual loopback ports). While a few clients
 * sign Ed25519 messages through the gateway (two rounds and one call in turn) and verify every
 * signature, it kills and then stalls (SIGSTOP for a while, SIGCONT) PostgreSQL, tss-api, a key
 * share node and the gateway in turn, and prints per fault the errors clients saw, the slowest
 * request and the time until signing worked again; then a consistency check of the database.
 * Bounded: about four minutes, a few thousand signatures at most; exits 1 if a fault was not
 * recovered from or a consistency check fails. Not part of `pnpm test`.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { issueApiKey } from '@svc/auth';
import { createDb, type PrismaClient } from '@svc/db';
import { freePort } from '@svc/db/testing';
import { ed25519KeygenBody, newEd25519Key, post, signEd25519, signEd25519OneCall, verifyWithNode } from '../../tss-api/test/support/wallet-client.js';

const CLIENTS = 4;
const BASELINE_MS = 4_000;
const STALL_MS = 10_000;
// Longer than the database waits are bounded (DB_STATEMENT_TIMEOUT_MS 10 s + 2 s): requests must fail, not hang.
const PG_STALL_MS = 20_000;
const SETTLE_MS = 4_000;
const RECOVERY_LIMIT_MS = 60_000;
const SESSION_TTL_S = 30;
const GATEWAY = 'http://127.0.0.1:4200';
const repoRoot = resolve(import.meta.dirname, '..', '..', '..');

interface Attempt {
  start: number;
  end: number;
  ok: boolean;
  label: string;
}
const attempts: Attempt[] = [];
const verifiedHashes: string[] = [];
let badSignatures = 0;

// ---- the stack -------------------------------------------------------------------------------

const dataDir = await mkdtemp(join(tmpdir(), 'svc-faults-'));
const pgPort = await freePort();
const log = createWriteStream(join(dataDir, 'stack.log'));
let stackOutput = '';
// As `pnpm start` runs it: one node process (see docs/operations.md, Faults and recovery).
const stack = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: join(repoRoot, 'apps', 'stack'),
  env: {
    ...process.env,
    DATABASE_URL: '',
    STACK_DATA_DIR: dataDir,
    EMBEDDED_PG_DATA_DIR: join(dataDir, 'postgres'),
    EMBEDDED_PG_PORT: String(pgPort),
    LOG_LEVEL: 'warn',
    TSS_SESSION_TTL_SECONDS: String(SESSION_TTL_S),
    TSS_SESSION_SWEEP_SECONDS: '2',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
for (const stream of [stack.stdout, stack.stderr]) {
  stream.on('data', (d: Buffer) => {
    stackOutput += String(d);
    log.write(d);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (stack.exitCode !== null) throw new Error(`the stack exited (see ${join(dataDir, 'stack.log')})`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Process group of an app, from the stack's latest "started <name> (pid N)". */
function appGroup(name: string): number {
  const matches = [...stackOutput.matchAll(new RegExp(`started ${name} \\(pid (\\d+)\\)`, 'g'))];
  if (matches.length === 0) throw new Error(`no pid for ${name}`);
  return -Number(matches.at(-1)![1]);
}

/** The postmaster and every process it forked (backends, checkpointer, ...). */
async function postgresPids(): Promise<number[]> {
  const postmaster = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

const signal = (pids: number[], sig: NodeJS.Signals) => {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // gone already
    }
  }
};

// ---- clients ---------------------------------------------------------------------------------

async function emailIdToken(email: string): Promise<string> {
  const since = Date.now();
  const sent = await post(GATEWAY, '/tss/v1/user/email/request_code', { email });
  if (sent.status !== 200) throw new Error(`request_code ${sent.status} ${JSON.stringify(sent.body)}`);
  const spool = join(dataDir, 'mail');
  for (let i = 0; i < 75; i++) {
    for (const file of (await readdir(spool).catch(() => [] as string[])).filter((f) => f.endsWith('.json'))) {
      const mail = JSON.parse(await readFile(join(spool, file), 'utf8')) as { to: string[] | string; text: string; receivedAt: string };
      if (![mail.to].flat().includes(email) || Date.parse(mail.receivedAt) < since - 1000) continue;
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
      const verified = await post<{ id_token: string }>(GATEWAY, '/tss/v1/user/email/verify_code', { email, code });
      if (!verified.body.data) throw new Error(`verify_code ${verified.status}`);
      return verified.body.data.id_token;
    }
    await sleep(200);
  }
  throw new Error(`no mail to ${email}`);
}

async function newSigner(apiKey: string) {
  const email = `faults-${randomUUID().slice(0, 8)}@example.com`;
  const key = await newEd25519Key();
  const created = await post<{ token: string }>(GATEWAY, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(key) }, { authorization: `Bearer ${await emailIdToken(email)}`, 'x-api-key': apiKey });
  if (!created.body.data) throw new Error(`keygen ${created.status} ${JSON.stringify(created.body)}`);
  return { key, headers: { authorization: `Bearer ${created.body.data.token}`, 'x-api-key': apiKey } };
}

function labelOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const envelope = /^(round[12]|sign) (\d{3}) .*"code":"([A-Z_]+)"/.exec(text);
  if (envelope) return `${envelope[2]} ${envelope[3]}`;
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return cause ? `network ${cause}` : text.slice(0, 60);
}

let loadRunning = true;
async function signLoop(signer: Awaited<ReturnType<typeof newSigner>>): Promise<void> {
  // Both forms in turn: the spec's two rounds and the one call the SDK uses.
  for (let turn = 0; loadRunning; turn++) {
    const sign = turn % 2 ? signEd25519OneCall : signEd25519;
    const msg = randomBytes(32);
    const start = Date.now();
    try {
      const { signature } = await sign(GATEWAY, signer.headers, signer.key.keygen, msg);
      const ok = verifyWithNode(signature, msg, signer.key.keygen.publicKey);
      if (ok) verifiedHashes.push(createHash('sha256').update(msg).digest('hex'));
      else badSignatures += 1;
      attempts.push({ start, end: Date.now(), ok, label: ok ? 'ok' : 'INVALID SIGNATURE' });
    } catch (error) {
      attempts.push({ start, end: Date.now(), ok: false, label: labelOf(error) });
      await sleep(100);
    }
    await sleep(20);
  }
}

// ---- faults ----------------------------------------------------------------------------------

interface Fault {
  name: string;
  /** Injects the fault; resolves at the moment it ends (the kill, or the SIGCONT of a stall). */
  inject(): Promise<void>;
}

const stall = async (pids: () => Promise<number[]> | number[], ms = STALL_MS) => {
  const stopped = await pids();
  signal(stopped, 'SIGSTOP');
  await sleep(ms);
  signal(stopped, 'SIGCONT');
};

const FAULTS: Fault[] = [
  { name: 'PostgreSQL killed (SIGKILL)', inject: async () => signal((await postgresPids()).slice(0, 1), 'SIGKILL') },
  { name: `PostgreSQL stalled ${PG_STALL_MS / 1000} s`, inject: () => stall(postgresPids, PG_STALL_MS) },
  { name: 'tss-api killed', inject: async () => signal([appGroup('tss-api')], 'SIGKILL') },
  { name: `tss-api stalled ${STALL_MS / 1000} s`, inject: () => stall(() => [appGroup('tss-api')]) },
  { name: 'node-2 killed', inject: async () => signal([appGroup('node-2')], 'SIGKILL') },
  { name: `node-2 stalled ${STALL_MS / 1000} s`, inject: () => stall(() => [appGroup('node-2')]) },
  { name: 'gateway killed', inject: async () => signal([appGroup('gateway')], 'SIGKILL') },
  { name: `gateway stalled ${STALL_MS / 1000} s`, inject: () => stall(() => [appGroup('gateway')]) },
];

interface Result {
  fault: string;
  ok: number;
  errors: Map<string, number>;
  slowestMs: number;
  recoveryMs: number | undefined;
}

async function runFault(fault: Fault): Promise<Result> {
  await sleep(BASELINE_MS);
  const from = Date.now();
  await fault.inject();
  const ended = Date.now();
  // Recovered: a signature that started after the fault ended went through.
  await until(() => attempts.some((a) => a.ok && a.start >= ended), `recovery from ${fault.name}`, RECOVERY_LIMIT_MS).catch(() => undefined);
  const firstOk = attempts.find((a) => a.ok && a.start >= ended);
  await sleep(SETTLE_MS);
  const window = attempts.filter((a) => a.end >= from);
  const errors = new Map<string, number>();
  for (const a of window.filter((a) => !a.ok)) errors.set(a.label, (errors.get(a.label) ?? 0) + 1);
  return {
    fault: fault.name,
    ok: window.filter((a) => a.ok).length,
    errors,
    slowestMs: Math.max(0, ...window.map((a) => a.end - a.start)),
    recoveryMs: firstOk ? firstOk.end - ended : undefined,
  };
}

// ---- consistency -----------------------------------------------------------------------------

async function consistency(db: PrismaClient): Promise<[string, number, number][]> {
  const count = async (sql: string) => Number(((await db.$queryRawUnsafe(sql)) as { n: bigint }[])[0]!.n);
  const inAudit = new Set(((await db.$queryRawUnsafe('SELECT message_hash FROM signature_audit_logs')) as { message_hash: string }[]).map((r) => r.message_hash));
  return [
    // [what, found, expected]
    ['ACTIVE sessions past their expiry (the sweeper ends them)', await count('SELECT count(*) AS n FROM tss_sessions WHERE status = \'ACTIVE\' AND expires_at < now()'), 0],
    ['completed Ed25519 signing sessions without an audit row', await count("SELECT count(*) AS n FROM tss_sessions s WHERE kind = 'SIGN_ED25519' AND status = 'COMPLETED' AND NOT EXISTS (SELECT 1 FROM signature_audit_logs a WHERE a.session_id = s.id)"), 0],
    ['audit rows of a session that did not complete', await count("SELECT count(*) AS n FROM signature_audit_logs a JOIN tss_sessions s ON s.id = a.session_id WHERE s.status <> 'COMPLETED'"), 0],
    ['sessions with more than one audit row (a nonce used twice)', await count('SELECT count(*) AS n FROM (SELECT session_id FROM signature_audit_logs WHERE session_id IS NOT NULL GROUP BY session_id HAVING count(*) > 1) d'), 0],
    ['verified signatures the audit log does not know', verifiedHashes.filter((h) => !inAudit.has(h)).length, 0],
    ['signatures that failed verification', badSignatures, 0],
  ];
}

// ---- run -------------------------------------------------------------------------------------

let exitCode = 0;
try {
  console.log(`starting the stack (data ${dataDir}, PostgreSQL port ${pgPort})...`);
  await until(() => /ready in \d/.test(stackOutput), 'the stack to be ready', 180_000);
  const db = createDb(`postgresql://postgres:postgres@127.0.0.1:${pgPort}/svc_main`);
  const issued = issueApiKey();
  const customer = await db.customer.create({ data: { label: 'faults', email: `faults-${randomUUID().slice(0, 8)}@example.com` } });
  await db.apiKey.create({ data: { customerId: customer.id, keyPrefix: issued.displayPrefix, keyHash: issued.hash, label: 'faults' } });
  const signers = await Promise.all(Array.from({ length: CLIENTS }, () => newSigner(issued.key)));
  console.log(`${CLIENTS} clients signing through the gateway; faults one at a time\n`);
  const load = signers.map((s) => signLoop(s));

  const results: Result[] = [];
  for (const fault of FAULTS) {
    const r = await runFault(fault);
    results.push(r);
    const errors = [...r.errors].map(([label, n]) => `${n}x ${label}`).join(', ') || 'none';
    console.log(
      `${r.fault.padEnd(30)} ok ${String(r.ok).padStart(4)}  slowest ${String(r.slowestMs).padStart(6)} ms  ` +
        `recovered in ${r.recoveryMs === undefined ? 'NEVER' : `${r.recoveryMs} ms`}  errors: ${errors}`,
    );
    if (r.recoveryMs === undefined) exitCode = 1;
  }
  loadRunning = false;
  await Promise.all(load);

  console.log(`\n${attempts.filter((a) => a.ok).length} signatures verified, ${attempts.filter((a) => !a.ok).length} failed attempts in all`);
  console.log(`waiting ${SESSION_TTL_S + 5} s for the session sweeper (TTL ${SESSION_TTL_S} s), then checking the database:`);
  await sleep((SESSION_TTL_S + 5) * 1000);
  for (const [what, found, expected] of await consistency(db)) {
    console.log(`  ${found === expected ? 'ok  ' : 'FAIL'} ${what}: ${found}`);
    if (found !== expected) exitCode = 1;
  }
  const statuses = (await db.$queryRawUnsafe("SELECT status::text, count(*)::int AS n FROM tss_sessions WHERE kind = 'SIGN_ED25519' GROUP BY 1 ORDER BY 1")) as { status: string; n: number }[];
  console.log(`  Ed25519 signing sessions: ${statuses.map((s) => `${s.n} ${s.status}`).join(', ')}`);
  await db.$disconnect();
} catch (error) {
  console.error(`fault run failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  loadRunning = false;
  if (stack.exitCode === null) process.kill(-stack.pid!, 'SIGINT');
  await new Promise((r) => (stack.exitCode === null ? stack.once('exit', r) : r(null)));
  log.end();
  if (exitCode === 0) await rm(dataDir, { recursive: true, force: true });
  else console.error(`stack log kept: ${join(dataDir, 'stack.log')}`);
}
process.exit(exitCode);
