// ECDSA (two-party cait-sith) suite of `pnpm bench:crypto`: CPU per triple (batched), per
// presignature, per online signature (both parties), JSON bytes per triple, round trips, and the
// online signing CPU as a ratio to one single-party noble secp256k1.sign in the same run.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { goalLine } from '@svc/tooling/bench-goal';
import { dealSecp256k1 } from '../src/index.js';
import { type Presignature, type Triple, PRESIGN_ROUND_TRIPS, TRIPLE_GEN_ROUND_TRIPS, presignClientStart, presignClientStep, presignServerStart, presignServerStep, signCombine, signShareServer, tripleBatchCost, tripleGenClientStart, tripleGenClientStep, tripleGenServerStart, tripleGenServerStep } from '../src/ecdsa/index.js';

const cpuMs = <T>(f: () => T): [T, number] => {
  const c0 = process.cpuUsage();
  const r = f();
  const c = process.cpuUsage(c0);
  return [r, (c.user + c.system) / 1000];
};
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const size = (v: unknown) => JSON.stringify(v).length;

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

export async function runEcdsaBench(): Promise<void> {
  const COUNT = 64;
  const deal = dealSecp256k1(secp256k1.utils.randomSecretKey());
  const keyC = { ...deal.shares[0], publicKey: deal.publicKey };
  const keyS = { ...deal.shares[1], publicKey: deal.publicKey };

  const sk = secp256k1.utils.randomSecretKey();
  const baseHash = sha256(new TextEncoder().encode('baseline'));
  /** CPU ms of one noble secp256k1.sign, measured before and after the batch (load drifts). */
  const nobleSignMs = () => {
    for (let i = 0; i < 50; i++) secp256k1.sign(baseHash, sk, { prehash: false });
    return cpuMs(() => {
      for (let i = 0; i < 500; i++) secp256k1.sign(baseHash, sk, { prehash: false });
    })[1] / 500;
  };
  tripleBatch(2); // warm-up
  const nobleBefore = nobleSignMs();
  const wall0 = performance.now();
  const t = tripleBatch(COUNT);
  const tripleWall = performance.now() - wall0;
  const perTriple = (t.cpuClient + t.cpuServer) / COUNT;

  const M = COUNT / 2;
  const pc = (ts: Triple[]) => Array.from({ length: M }, (_, i) => [ts[2 * i]!, ts[2 * i + 1]!] as [Triple, Triple]);
  const [presigs, presignCpu] = cpuMs(() => {
    const c = presignClientStart({ keyShare: keyC, triples: pc(t.client) });
    const s = presignServerStart({ keyShare: keyS, triples: pc(t.server) });
    const r1 = presignServerStep(s, json(c.outgoing));
    const c2 = presignClientStep(c.state, json(r1.outgoing));
    const r2 = presignServerStep(r1.state, json(c2.outgoing));
    const c3 = presignClientStep(c2.state, json(r2.outgoing));
    if (!r2.done || !c3.done) throw new Error('presign failed');
    return { client: c3.output, server: r2.output } as { client: Presignature[]; server: Presignature[] };
  });
  const perPresign = presignCpu / M;

  const hashes = Array.from({ length: M }, (_, i) => sha256(new TextEncoder().encode(`message ${i}`)));
  const [, signCpu] = cpuMs(() => {
    for (let i = 0; i < M; i++) signCombine(presigs.client[i]!, hashes[i]!, signShareServer(presigs.server[i]!, hashes[i]!));
  });
  const perSign = signCpu / M;
  const perNoble = (nobleBefore + nobleSignMs()) / 2;
  const cost = tripleBatchCost(COUNT);

  console.log(`\nECDSA 2-of-2 (cait-sith family), batch of ${COUNT} triples -> ${M} presignatures, CPU of both parties`);
  const row = (name: string, value: string) => console.log(`  ${name.padEnd(52)} ${value}`);
  row('triple generation, per triple (batched)', `${perTriple.toFixed(2)} ms CPU  (client ${(t.cpuClient / COUNT).toFixed(2)}, server ${(t.cpuServer / COUNT).toFixed(2)}; batch wall ${tripleWall.toFixed(0)} ms)`);
  row('presign only, per presignature', `${perPresign.toFixed(2)} ms CPU`);
  row('presignature incl. its two triples (amortised)', `${(perPresign + 2 * perTriple).toFixed(2)} ms CPU`);
  row('online signature (server share + client combine/verify)', `${perSign.toFixed(3)} ms CPU`);
  row('noble secp256k1.sign, single party (baseline)', `${perNoble.toFixed(3)} ms CPU`);
  row('online signing CPU / noble sign', `${(perSign / perNoble).toFixed(2)}x`);
  console.log(`  ${goalLine(`ECDSA presignature incl. its two triples, batch ${M}, CPU of both parties / secp256k1.sign`, (perPresign + 2 * perTriple) / perNoble, { op: '<=', target: 200 })}`);
  row('bytes per triple (JSON bodies, measured)', `${(t.bytes / COUNT).toFixed(0)} B  (raw payload ${cost.bytesPerTriple.toFixed(0)} B)`);
  row('round trips per triple batch / per presign run / sign', `${TRIPLE_GEN_ROUND_TRIPS} / ${PRESIGN_ROUND_TRIPS} / 1`);
}
