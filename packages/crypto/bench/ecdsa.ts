// ECDSA (two-party cait-sith) suite of `pnpm bench:crypto`: CPU per triple (batched), per
// presignature, per online signature (both parties), JSON bytes per triple, round trips, and the
// online signing CPU as a ratio to one single-party noble secp256k1.sign in the same run.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { goalLine } from '@svc/tooling/bench-goal';
import { dealSecp256k1 } from '../src/index.js';
import { type EcdsaKeyShare, type Presignature, type Triple, PRESIGN_ROUND_TRIPS, TRIPLE_GEN_ROUND_TRIPS, presignClientStart, presignClientStep, presignServerStart, presignServerStep, signCombine, signShareServer, tripleBatchCost, tripleGenClientStart, tripleGenClientStep, tripleGenServerStart, tripleGenServerStep } from '../src/ecdsa/index.js';

const cpuMs = <T>(f: () => T): [T, number] => {
  const c0 = process.cpuUsage();
  const r = f();
  const c = process.cpuUsage(c0);
  return [r, (c.user + c.system) / 1000];
};
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const size = (v: unknown) => JSON.stringify(v).length;

/**
 * CPU ms of one noble secp256k1.sign (the baseline) on its own: warm, in a clean moment, as a
 * single-party signer would run. Measured right before and right after each round's batch; the
 * round's ratio uses their mean. (Sampling it between the protocol steps instead charged the
 * steps' garbage collection and cold caches to the baseline and flattered the ratio by 10-15%.)
 */
const noble = (() => {
  const sk = secp256k1.utils.randomSecretKey();
  const hash = sha256(new TextEncoder().encode('baseline'));
  return (): number => {
    for (let i = 0; i < 50; i++) secp256k1.sign(hash, sk, { prehash: false });
    return cpuMs(() => {
      for (let i = 0; i < 500; i++) secp256k1.sign(hash, sk, { prehash: false });
    })[1] / 500;
  };
})();

function tripleBatch(count: number) {
  let cpuClient = 0;
  let cpuServer = 0;
  let bytes = 0;
  const c = (f: () => unknown) => { const [r, ms] = cpuMs(f); cpuClient += ms; return r as ReturnType<typeof tripleGenClientStep>; };
  const s = (f: () => unknown) => { const [r, ms] = cpuMs(f); cpuServer += ms; return r as ReturnType<typeof tripleGenServerStep>; };
  const start = c(() => tripleGenClientStart({ count })) as unknown as ReturnType<typeof tripleGenClientStart>;
  let msg: unknown = json(start.outgoing);
  bytes += size(msg);
  let cs = start.state;
  let ss = tripleGenServerStart({ maxCount: count });
  let server: Triple[] = [];
  for (;;) {
    const r = s(() => tripleGenServerStep(ss, msg));
    ss = json(r.state);
    if (r.done) server = r.output;
    const reply = json(r.outgoing);
    bytes += size(reply);
    const q = c(() => tripleGenClientStep(cs, reply));
    if (q.done) return { client: q.output, server, cpuClient, cpuServer, bytes };
    cs = json(q.state);
    msg = json(q.outgoing);
    bytes += size(msg);
  }
}

const COUNT = 64;
const M = COUNT / 2;
const ROUNDS = 3;

/** One round: a batch of COUNT triples, M presignatures from them, M online signatures. */
function round(keyC: EcdsaKeyShare, keyS: EcdsaKeyShare) {
  const nobleBefore = noble();
  const wall0 = performance.now();
  const t = tripleBatch(COUNT);
  const tripleWall = performance.now() - wall0;
  const perTriple = (t.cpuClient + t.cpuServer) / COUNT;

  const pc = (ts: Triple[]) => Array.from({ length: M }, (_, i) => [ts[2 * i]!, ts[2 * i + 1]!] as [Triple, Triple]);
  let presignCpu = 0;
  const step = <T>(f: () => T): T => {
    const [r, ms] = cpuMs(f);
    presignCpu += ms;
    return r;
  };
  const c = step(() => presignClientStart({ keyShare: keyC, triples: pc(t.client) }));
  const s = step(() => presignServerStart({ keyShare: keyS, triples: pc(t.server) }));
  const r1 = step(() => presignServerStep(s, json(c.outgoing)));
  const c2 = step(() => presignClientStep(c.state, json(r1.outgoing)));
  const r2 = step(() => presignServerStep(r1.state, json(c2.outgoing)));
  const c3 = step(() => presignClientStep(c2.state, json(r2.outgoing)));
  if (!r2.done || !c3.done) throw new Error('presign failed');
  const presigs = { client: c3.output, server: r2.output } as { client: Presignature[]; server: Presignature[] };
  const perPresign = presignCpu / M;

  const hashes = Array.from({ length: M }, (_, i) => sha256(new TextEncoder().encode(`message ${i}`)));
  const [, signCpu] = cpuMs(() => {
    for (let i = 0; i < M; i++) signCombine(presigs.client[i]!, hashes[i]!, signShareServer(presigs.server[i]!, hashes[i]!));
  });
  const perNoble = (nobleBefore + noble()) / 2;
  return { t, tripleWall, perTriple, perPresign, perSign: signCpu / M, perNoble, ratio: (perPresign + 2 * perTriple) / perNoble };
}

export async function runEcdsaBench(): Promise<void> {
  const deal = dealSecp256k1(secp256k1.utils.randomSecretKey());
  const keyC = { ...deal.shares[0], publicKey: deal.publicKey };
  const keyS = { ...deal.shares[1], publicKey: deal.publicKey };
  tripleBatch(2); // warm-up
  const rounds = Array.from({ length: ROUNDS }, () => round(keyC, keyS));
  const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(ROUNDS / 2)]!;
  const { t, tripleWall, perTriple, perPresign, perSign, perNoble } = median;
  const cost = tripleBatchCost(COUNT);

  console.log(`\nECDSA 2-of-2 (cait-sith family), batch of ${COUNT} triples -> ${M} presignatures, CPU of both parties (median of ${ROUNDS} rounds)`);
  const row = (name: string, value: string) => console.log(`  ${name.padEnd(52)} ${value}`);
  row('triple generation, per triple (batched)', `${perTriple.toFixed(2)} ms CPU  (client ${(t.cpuClient / COUNT).toFixed(2)}, server ${(t.cpuServer / COUNT).toFixed(2)}; batch wall ${tripleWall.toFixed(0)} ms)`);
  row('presign only, per presignature', `${perPresign.toFixed(2)} ms CPU`);
  row('presignature incl. its two triples (amortised)', `${(perPresign + 2 * perTriple).toFixed(2)} ms CPU`);
  row('online signature (server share + client combine/verify)', `${perSign.toFixed(3)} ms CPU`);
  row('noble secp256k1.sign, single party (baseline)', `${perNoble.toFixed(3)} ms CPU  (before and after each round)`);
  row('online signing CPU / noble sign', `${(perSign / perNoble).toFixed(2)}x`);
  row('presignature / noble sign, each round', rounds.map((r) => `${r.ratio.toFixed(0)}x`).join(', '));
  console.log(`  ${goalLine(`ECDSA presignature incl. its two triples, batch ${M}, CPU of both parties / secp256k1.sign`, median.ratio, { op: '<=', target: 200 })}`);
  row('bytes per triple (JSON bodies, measured)', `${(t.bytes / COUNT).toFixed(0)} B  (raw payload ${cost.bytesPerTriple.toFixed(0)} B)`);
  row('round trips per triple batch / per presign run / sign', `${TRIPLE_GEN_ROUND_TRIPS} / ${PRESIGN_ROUND_TRIPS} / 1`);
}
