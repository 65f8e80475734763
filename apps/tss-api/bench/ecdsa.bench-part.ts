import { createHash, randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { toHex } from '@svc/crypto';
import {
  generateTriples,
  newSecp256k1Key,
  presign,
  recoverPublicKey,
  signatureBytes,
  signOneTrip,
  signTwoSteps,
  verifySha256WithNode,
  type PooledPresignature,
  type SignOutput,
} from '../test/support/ecdsa-client.js';
import { post } from '../test/support/wallet-client.js';
import { httpLink, type HttpLink } from './http-link.js';
import { percentile, timeConcurrently } from './latency.js';

// The ECDSA part of `pnpm bench:sign`: a secp256k1 wallet through the gateway over HTTP, client
// work included (triples, presign, the client's signature share, the SDK's own verification).

export interface EcdsaBenchOptions {
  url: string;
  apiKey: string;
  idToken: string;
  /** Signatures per online phase on loopback (at most the server's presignature cap). */
  n: number;
  concurrency: number;
  /** Signatures per phase with the simulated 50 ms round trip. */
  rttN: number;
}

const RTT_MS = 50;
/** Presignatures per batch when filling the pool: 64 triples, the default ECDSA_TRIPLE_BATCH_MAX. */
const FILL_BATCH = 32;
/** The reference design: 16 sequential HTTP round trips per signature, 2-3 s in total (issue #6). */
const REFERENCE_ROUND_TRIPS = 16;
/** Round trips of one offline batch: triples 3 + presign 2. */
const OFFLINE_ROUND_TRIPS = 5;

const sha256 = (m: Uint8Array) => new Uint8Array(createHash('sha256').update(m).digest());
const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const f1 = (x: number, w = 7) => x.toFixed(1).padStart(w);
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

type Mode = 'one-trip' | 'two-step';

interface Signed {
  output: SignOutput;
  message: Uint8Array;
  hash: Uint8Array;
}

export async function runEcdsaBench(o: EcdsaBenchOptions): Promise<void> {
  const key = newSecp256k1Key();
  const t0 = performance.now();
  const created = await post<{ token: string }>(o.url, '/tss/v1/keygen', { secp256k1: key.keygenBody }, { authorization: `Bearer ${o.idToken}`, 'x-api-key': o.apiKey });
  if (!created.body.data) throw new Error(`secp256k1 keygen failed: ${created.status} ${JSON.stringify(created.body)}`);
  console.log(`\nECDSA (secp256k1, two-party cait-sith) — keygen over HTTP ${(performance.now() - t0).toFixed(1)} ms`);
  const headers = { authorization: `Bearer ${created.body.data.token}`, 'x-api-key': o.apiKey };
  const loopback = httpLink(o.url, headers);
  const delayed = httpLink(o.url, headers, RTT_MS);
  /** The client's halves, in memory as the SDK keeps them; each is used once. */
  const pool: PooledPresignature[] = [];

  /** One offline batch of m presignatures: triples (2m) in 3 round trips, presign in 2. */
  async function batch(link: HttpLink, m: number) {
    link.reset();
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    const triples = await generateTriples(() => link.post, 2 * m);
    const triplesMs = performance.now() - start;
    const made = await presign(() => link.post, key.keyShare, triples);
    const ms = performance.now() - start;
    pool.push(...made);
    return { m, ms, triplesMs, presignMs: ms - triplesMs, requests: link.stats.requests, bytes: link.stats.sent + link.stats.received, clientCpuMs: cpuMs(process.cpuUsage(cpu0)) };
  }

  async function fill(target: number) {
    const start = performance.now();
    const before = pool.length;
    while (pool.length < target) await batch(loopback, Math.min(FILL_BATCH, target - pool.length));
    return { added: pool.length - before, ms: performance.now() - start };
  }

  function reportOffline(label: string, runs: Awaited<ReturnType<typeof batch>>[]) {
    const m = runs[0]!.m;
    const ms = median(runs.map((r) => r.ms));
    const requests = runs[0]!.requests;
    if (requests !== OFFLINE_ROUND_TRIPS) throw new Error(`expected ${OFFLINE_ROUND_TRIPS} round trips per batch, counted ${requests}`);
    console.log(
      `  ${label.padEnd(30)} ${String(runs.length).padStart(2)} run(s): median ${f1(ms, 8)} ms per batch (triples ${f1(median(runs.map((r) => r.triplesMs)), 7)}, presign ${f1(median(runs.map((r) => r.presignMs)), 6)}) ` +
        `= ${f1(ms / m, 6)} ms and ${(requests / m).toFixed(2)} round trips per presignature; ` +
        `${(median(runs.map((r) => r.bytes)) / m / 1e6).toFixed(2)} MB JSON and ${f1(median(runs.map((r) => r.clientCpuMs)) / m, 5)} ms client CPU per presignature`,
    );
  }

  async function signOnce(link: HttpLink, mode: Mode, pooled: PooledPresignature): Promise<Signed> {
    const message = randomBytes(64);
    const hash = sha256(message);
    const { output } = mode === 'one-trip' ? await signOneTrip(link.post, pooled, hash) : await signTwoSteps(() => link.post, pooled, hash);
    // The SDK's own check (signDigest) before it hands the signature out.
    if (!secp256k1.verify(signatureBytes(output), hash, key.publicKey, { prehash: false, lowS: true })) throw new Error('signature does not verify (noble)');
    return { output, message, hash };
  }

  /** Independent proof, outside the timed path: OpenSSL verifies each signature, and r, s, recovery_id recover the wallet key. */
  function proveAll(signed: Signed[]) {
    const publicKey = toHex(key.publicKey);
    for (const s of signed) {
      if (!verifySha256WithNode(s.output, s.message, key.publicKey)) throw new Error('a bench signature does not verify with node:crypto');
      if (recoverPublicKey(s.output, s.hash) !== publicKey) throw new Error('a bench signature does not recover the wallet key');
    }
    return signed.length;
  }

  let verified = 0;
  async function online(link: HttpLink, mode: Mode, n: number, concurrency: number, print = true) {
    await fill(n);
    link.reset();
    const cpu0 = process.cpuUsage();
    const timed = await timeConcurrently(n, concurrency, () => {
      const pooled = pool.shift();
      if (!pooled) throw new Error('bench pool empty');
      return signOnce(link, mode, pooled);
    });
    const clientCpu = cpuMs(process.cpuUsage(cpu0)) / n;
    const requests = link.stats.requests / n;
    verified += proveAll(timed.results);
    const r = { p50: timed.p50, p95: timed.p95, p99: timed.p99, perSecond: timed.perSecond };
    if (print) {
      const net = link.rttMs ? `, measured delay ${(link.stats.delayMs / link.stats.requests).toFixed(1)} ms/request` : '';
      console.log(
        `  ${`${mode}, concurrency ${concurrency}`.padEnd(26)} n=${String(n).padStart(4)}  p50 ${f1(r.p50)} ms  p95 ${f1(r.p95)} ms  p99 ${f1(r.p99)} ms  ` +
          `${f1(r.perSecond, 6)} signatures/s  ${requests.toFixed(0)} round trip(s)  client CPU ${clientCpu.toFixed(2)} ms/signature${net}`,
      );
    }
    return r;
  }

  console.log(`ECDSA offline, loopback: one batch = triples (2 per presignature, 3 round trips) + presign (2 round trips)`);
  const runs8 = [];
  for (let i = 0; i < 3; i++) runs8.push(await batch(loopback, 8));
  reportOffline('batch of 8', runs8);
  const runs1 = [];
  for (let i = 0; i < 5; i++) runs1.push(await batch(loopback, 1));
  reportOffline('batch of 1', runs1);
  reportOffline(`batch of ${FILL_BATCH} (pool fill size)`, [await batch(loopback, FILL_BATCH)]);
  reportOffline(`batch of 8, ${RTT_MS} ms RTT`, [await batch(delayed, 8)]);
  const fillStats = await fill(o.n);
  if (fillStats.added) {
    console.log(`  warm pool topped up to ${pool.length}: ${fillStats.added} presignatures in ${(fillStats.ms / 1000).toFixed(1)} s (${((fillStats.added * 1000) / fillStats.ms).toFixed(1)} presignatures/s, wall)`);
  }

  // The floor of any authenticated call through the gateway: the guards (API key: one SELECT; JWT) and
  // validation, which refuses an empty sign/step2 body before the service runs. No crypto, no write.
  const floor: number[] = [];
  for (let i = 0; i < 50; i++) {
    const start = performance.now();
    const res = await loopback.post('/tss/v1/sign/step2', {});
    floor.push(performance.now() - start);
    if (res.status !== 400) throw new Error(`an empty sign/step2 body answered ${res.status}`);
  }
  console.log(`ECDSA online, loopback, warm pool (each signature spends its own presignature):`);
  console.log(`  floor: an authenticated call refused by validation (API key SELECT + JWT, then 400; no crypto, no write) p50 ${f1(median(floor), 5)} ms`);
  await online(loopback, 'one-trip', Math.min(10, o.n), 1, false); // warm-up
  const one = await online(loopback, 'one-trip', o.n, 1);
  await online(loopback, 'one-trip', o.n, o.concurrency);
  const two = await online(loopback, 'two-step', o.n, 1);
  await online(loopback, 'two-step', o.n, o.concurrency);

  console.log(
    `ECDSA online, simulated ${RTT_MS} ms round trip (client side: +${RTT_MS / 2} ms before each request is sent, +${RTT_MS / 2} ms after its response; ` +
      `keep-alive, no bandwidth limit):`,
  );
  await online(delayed, 'one-trip', Math.min(5, o.rttN), 1, false); // warm-up
  const oneRtt = await online(delayed, 'one-trip', o.rttN, 1);
  const twoRtt = await online(delayed, 'two-step', o.rttN, 1);
  console.log(
    `  reference design: ${REFERENCE_ROUND_TRIPS} sequential round trips = ${REFERENCE_ROUND_TRIPS * RTT_MS} ms of network alone at ${RTT_MS} ms RTT, 2-3 s per signature in total (issue #6); ` +
      `here 1 round trip (${oneRtt.p50.toFixed(1)} ms p50) or 2 (${twoRtt.p50.toFixed(1)} ms p50)`,
  );
  const verdict = (x: number, goal: number) => `${x.toFixed(1)} ms ${x < goal ? '<' : '>='} ${goal} ms: ${x < goal ? 'met' : 'NOT met'}`;
  console.log(`  goal p50 < 25 ms on loopback: one-trip ${verdict(one.p50, 25)}; two-step ${verdict(two.p50, 25)}`);
  console.log(`  goal p50 < 120 ms at ${RTT_MS} ms RTT: one-trip ${verdict(oneRtt.p50, 120)}; two-step ${verdict(twoRtt.p50, 120)}`);
  console.log(`  ${verified} ECDSA signatures verified by node:crypto (OpenSSL, SHA-256 over the message) and recovering the wallet key; ${pool.length} presignatures left in the pool`);
}
