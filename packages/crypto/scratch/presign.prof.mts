import { secp256k1 } from '@noble/curves/secp256k1.js';
import { dealSecp256k1 } from '/work/main/packages/crypto/src/index.js';
import { type Triple, presignClientStart, presignClientStep, presignServerStart, presignServerStep, tripleGenClientStart, tripleGenClientStep, tripleGenServerStart, tripleGenServerStep } from '/work/main/packages/crypto/src/ecdsa/index.js';
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
function batch(count: number) {
  const start = tripleGenClientStart({ count });
  let msg: unknown = json(start.outgoing); let cs = start.state; let ss = tripleGenServerStart({ maxCount: count }); let server: Triple[] = [];
  for (;;) { const r = tripleGenServerStep(ss, msg); ss = json(r.state); if (r.done) server = r.output; const q = tripleGenClientStep(cs, json(r.outgoing)); if (q.done) return { client: q.output, server }; cs = json(q.state); msg = json(q.outgoing); }
}
const deal = dealSecp256k1(secp256k1.utils.randomSecretKey());
const keyC = { ...deal.shares[0], publicKey: deal.publicKey };
const keyS = { ...deal.shares[1], publicKey: deal.publicKey };
const t = batch(64);
const M = 32;
const pc = (ts: Triple[]) => Array.from({ length: M }, (_, i) => [ts[2 * i]!, ts[2 * i + 1]!] as [Triple, Triple]);
let cpu = 0;
for (let rep = 0; rep < 6; rep++) {
  const tc = json(t.client), ts = json(t.server);
  const c0 = process.cpuUsage();
  const c = presignClientStart({ keyShare: keyC, triples: pc(tc) });
  const s = presignServerStart({ keyShare: keyS, triples: pc(ts) });
  const r1 = presignServerStep(s, json(c.outgoing));
  const c2 = presignClientStep(c.state, json(r1.outgoing));
  const r2 = presignServerStep(r1.state, json(c2.outgoing));
  const c3 = presignClientStep(c2.state, json(r2.outgoing));
  if (!r2.done || !c3.done) throw new Error('presign failed');
  const d = process.cpuUsage(c0); if (rep > 0) cpu += (d.user + d.system) / 1000;
}
console.log('presign per presig ms', (cpu / 5 / M).toFixed(2));
