import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { ed25519 } from '@noble/curves/ed25519.js';
import { goalLine } from '@svc/tooling/bench-goal';
import { postgresCpuMeter, processCpuMs } from '@svc/tooling/process-cpu';
import {
  aggregateEd25519,
  keygenSeedEd25519,
  signRound1ClientEd25519,
  signRound1ServerEd25519,
  signRound2ClientEd25519,
  signRound2ServerEd25519,
} from '@svc/crypto';
import { ed25519KeygenBody, newEd25519Key, post, signEd25519, signEd25519OneCall, verifyWithNode } from '../test/support/wallet-client.js';
import { benchEnv, readBenchSettings } from './bench-env.js';
import { runEcdsaBench } from './ecdsa.bench-part.js';
import { timeConcurrently } from './latency.js';
import { startLocalStack, type LocalStack } from './local-stack.js';

// pnpm bench:sign: Ed25519 signatures through the gateway over HTTP, client work included
// (client round 1, client share, aggregate with its verification), in the spec's two rounds and
// in one call as the SDK signs; then ECDSA (ecdsa.bench-part.ts). BENCH_CURVES=ed25519 or secp256k1 runs one part.

const settings = readBenchSettings(benchEnv);
/** Calls that warm the gateway and tss-api before the steady-state refused-call figure. */
const WARM_UP_CALLS = 2000;
/** Signatures before the Ed25519 phases (client, gateway and tss-api warm up on them). */
const WARM_UP_SIGNATURES = 200;
const fmt = (ms: number) => ms.toFixed(1).padStart(7);

async function run(label: string, n: number, concurrency: number, sign: () => Promise<void>) {
  const r = await timeConcurrently(n, concurrency, sign);
  console.log(
    `${label.padEnd(24)} n=${String(n).padStart(4)}  p50 ${fmt(r.p50)} ms  p95 ${fmt(r.p95)} ms  ` +
      `p99 ${fmt(r.p99)} ms  ${r.perSecond.toFixed(1).padStart(6)} signatures/s`,
  );
  return { p50: r.p50, perSecond: r.perSecond };
}

/** The same signature with no HTTP, no database, no encryption: both parties in-process. */
function bareCryptoMs(): number {
  const key = keygenSeedEd25519();
  const msg = randomBytes(64);
  const once = () => {
    const c = signRound1ClientEd25519(key.keygen1);
    const s = signRound1ServerEd25519(key.keygen2);
    const args = { msg, commitment0: s.commitment0, commitment1: c.commitment1 };
    const signatureShare0 = signRound2ServerEd25519({ ...args, keyPackage: key.keygen2, nonces: s.nonces });
    const signatureShare1 = signRound2ClientEd25519({ ...args, keyPackage: key.keygen1, nonces: c.nonces });
    aggregateEd25519({ ...args, publicKeyPackage: key.publicKeyPackage, signatureShare0, signatureShare1 });
  };
  for (let i = 0; i < 10; i++) once();
  const t0 = performance.now();
  const rounds = 60;
  for (let i = 0; i < rounds; i++) once();
  return (performance.now() - t0) / rounds;
}

/** CPU ms this process (the client) has used so far. */
function clientCpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** CPU ms of one single-party noble ed25519.sign in this process: the baseline of the goal lines. */
function ed25519SignMs(): number {
  const sk = ed25519.utils.randomSecretKey();
  const msg = randomBytes(200);
  for (let i = 0; i < 50; i++) ed25519.sign(msg, sk);
  const c0 = process.cpuUsage();
  const n = 1000;
  for (let i = 0; i < n; i++) ed25519.sign(msg, sk);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / n;
}

/**
 * An issue goal stated in ms (or signatures/s) on this machine, printed as the issue asks: the
 * figure as a ratio to one ed25519.sign of this run, against the goal converted the same way,
 * with the absolute value beside it. The verdict is the same either way.
 */
function msGoal(figure: string, ms: number, goal: { op: '<=' | '<'; ms: number }, signMs: number): string {
  const line = goalLine(`${figure} / ed25519.sign`, ms / signMs, { op: goal.op, target: Number((goal.ms / signMs).toFixed(1)) });
  return `${line}  [${ms.toFixed(2)} ms; goal ${goal.op} ${goal.ms} ms; one ed25519.sign = ${signMs.toFixed(3)} ms CPU]`;
}

async function ed25519Bench(url: string, apiKey: string, idToken: string, pids?: LocalStack['pids']) {
  const key = await newEd25519Key();
  const created = await post<{ token: string }>(url, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(key) }, { authorization: `Bearer ${idToken}`, 'x-api-key': apiKey });
  if (!created.body.data) throw new Error(`keygen failed: ${created.status} ${JSON.stringify(created.body)}`);
  const headers = { authorization: `Bearer ${created.body.data.token}`, 'x-api-key': apiKey };
  const msg = randomBytes(200);
  // The two ways to sign: the spec's two rounds (/tss/v2/sign_ed25519/round1, round2), and both
  // rounds in one call (POST /tss/v1/sign with commitment1), which the SDK uses.
  const modes = [
    { name: 'two rounds', signOnce: signEd25519 },
    { name: 'one call', signOnce: signEd25519OneCall },
  ];
  for (const { name, signOnce } of modes) {
    const check = await signOnce(url, headers, key.keygen, msg);
    if (!verifyWithNode(check.signature, msg, key.keygen.publicKey)) throw new Error(`${name}: signature does not verify with node:crypto`);
  }

  // The floor of every call: gateway hop, API key lookup, user JWT, validation refusing an empty
  // round-2 body (400). No crypto, no write.
  const refused = async () => {
    const res = await post(url, '/tss/v2/sign_ed25519/round2', {}, headers);
    if (res.status !== 400) throw new Error(`an empty round2 body answered ${res.status}`);
  };
  /**
   * CPU ms per call of `f` in each process on these cores (local stack only): the gateway,
   * tss-api, PostgreSQL (all its processes) and this client.
   */
  const serverCpu = async <T>(n: number, f: () => Promise<T>) => {
    if (!pids) return { result: await f(), text: '' };
    const read = () => [processCpuMs(pids.gateway), processCpuMs(pids.tss), clientCpuMs()];
    const before = read();
    const postgresCpu = postgresCpuMeter();
    const result = await f();
    const [gateway, tss, client] = read().map((v, i) => ((v - before[i]!) / n).toFixed(2));
    const postgres = (postgresCpu() / n).toFixed(2);
    return { result, text: `; CPU per call: gateway ${gateway} ms, tss-api ${tss} ms, PostgreSQL ${postgres} ms, client ${client} ms` };
  };
  // Measured twice: right after start (50 calls in), and once the processes are warm. V8
  // optimises the request path only after some thousands of calls; the first figure shows the
  // start-up transient, the second the steady state a running service has, which the goal is about.
  const refusedPhase = async (label: string) => {
    const { result, text } = await serverCpu(settings.n, () => timeConcurrently(settings.n, 1, refused));
    console.log(`Authenticated call refused by validation (gateway, API key, JWT, 400), ${label}: n=${settings.n}  p50 ${result.p50.toFixed(2)} ms  p95 ${result.p95.toFixed(2)} ms${text}`);
    return result;
  };
  await timeConcurrently(50, 1, refused);
  await refusedPhase('cold (after 50 calls)');
  await timeConcurrently(WARM_UP_CALLS, 1, refused);
  const floor = await refusedPhase(`warm (after ${WARM_UP_CALLS + 50 + settings.n} calls)`);

  const perSignature = (cpu: string) => cpu && console.log(`  CPU per signature, by process${cpu.replace('; CPU per call', '')}`);
  const results = [];
  for (const { name, signOnce } of modes) {
    const sign = async () => {
      const { signature } = await signOnce(url, headers, key.keygen, msg);
      if (signature.length !== 64) throw new Error('bad signature');
    };
    console.log(`Ed25519 (FROST 2-of-2), ${name}:`);
    await run('warm-up', WARM_UP_SIGNATURES, 1, sign);
    const { result: sequential, text: signCpu } = await serverCpu(settings.n, () => run('sequential (1 at a time)', settings.n, 1, sign));
    perSignature(signCpu);
    const { result: concurrent, text: concurrentCpu } = await serverCpu(settings.n * 2, () =>
      run(`concurrency ${settings.concurrency}`, settings.n * 2, settings.concurrency, sign),
    );
    perSignature(concurrentCpu);
    results.push({ name, sequential, concurrent });
  }
  const bare = bareCryptoMs();
  console.log(
    `bare crypto (both parties' complete 2-of-2 signature in one process, one shared point cache: a lower bound): ${bare.toFixed(1)} ms = ${(1000 / bare).toFixed(0)} signatures/s per core; ` +
      results.map((r) => `${r.name}: HTTP p50 ${(r.sequential.p50 / bare).toFixed(2)}x of it (${(r.sequential.p50 - bare).toFixed(1)} ms of HTTP + gateway + database + encryption)`).join('; '),
  );
  const signMs = ed25519SignMs();
  console.log(`  ${msGoal('Authenticated refused call through the gateway, p50 (warm)', floor.p50, { op: '<=', ms: 3 }, signMs)}`);
  for (const { name, sequential, concurrent } of results) {
    console.log(`  ${msGoal(`Ed25519 over HTTP (${name}), sequential p50`, sequential.p50, { op: '<', ms: 15 }, signMs)}`);
    console.log(
      `  ${msGoal(`Ed25519 over HTTP (${name}), concurrency ${settings.concurrency}, wall ms per signature`, 1000 / concurrent.perSecond, { op: '<=', ms: 10 }, signMs)}` +
        ` [${concurrent.perSecond.toFixed(1)} signatures/s; goal >= 100/s]`,
    );
  }
}

const stack = settings.url ? undefined : await startLocalStack();
const url = settings.url ?? stack!.url;
try {
  const apiKey = settings.apiKey ?? stack!.apiKey;
  // A fresh ID token per keygen: the second keygen of a person with the same token is refused as a replay.
  const [edToken, ecToken] = settings.idTokens ?? stack!.idTokens;
  const idTokens = [edToken!, ecToken ?? edToken!];
  console.log(`pnpm bench:sign — ${settings.url ? `target ${url}` : 'local stack: tss-api + gateway processes, embedded PostgreSQL'}; ${cpus().length} CPUs, Node ${process.version}; load average ${loadavg()[0]!.toFixed(2)}`);
  if (settings.curves.includes('ed25519')) await ed25519Bench(url, apiKey, idTokens[0]!, stack?.pids);
  if (settings.curves.includes('secp256k1')) {
    await runEcdsaBench({ url, apiKey, idToken: idTokens[1]!, n: settings.ecdsaN, concurrency: settings.concurrency, rttN: settings.rttN });
  }
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min)`);
} finally {
  await stack?.stop();
}
