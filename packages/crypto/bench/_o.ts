import { secp256k1 } from '@noble/curves/secp256k1.js';
import { mulAddUnsafe, pippenger } from '@noble/curves/abstract/curve.js';
import { cpuRatio } from './measure.js';
const P = secp256k1.Point; const Fn = P.Fn;
const sk = secp256k1.utils.randomSecretKey(); const h = new Uint8Array(32).fill(7);
const sign = () => secp256k1.sign(h, sk, { prehash: false });
const s = Fn.create(2n ** 255n + 123456789n); const X = P.BASE.multiply(987654321n);
const none = () => undefined;
const pts = Array.from({ length: 64 }, (_, i) => P.BASE.multiply(BigInt(i + 5)));
const r128 = pts.map((_, i) => BigInt(i + 1) * (2n ** 127n) + 12345n);
const Y = P.BASE.multiply(55555n); const Yt = P.BASE.multiply(55555n); Yt.precompute(8, false);
const Y4 = P.BASE.multiply(55556n); Y4.precompute(4, false);
for (const [n, f] of [
  ['G.multiply (CT, table)', () => P.BASE.multiply(s)],
  ['X.multiply (CT, var base)', () => X.multiply(s)],
  ['X.multiplyUnsafe', () => X.multiplyUnsafe(s)],
  ['X precomputed W8 multiply CT', () => Yt.multiply(s)],
  ['X precomputed W4 multiply CT', () => Y4.multiply(s)],
  ['G.multiplyUnsafe', () => P.BASE.multiplyUnsafe(s)],
  ['mulAddUnsafe 64 pts x 128-bit', () => mulAddUnsafe(P, pts, r128)],
  ['pippenger 64 pts x 128-bit', () => pippenger(P, pts, r128)],
  ['fromBytes compressed', () => P.fromBytes(X.toBytes(true))],
  ['toBytes', () => X.add(Y).toBytes(true)],
] as const) console.log(n.padEnd(34), cpuRatio(f as () => unknown, none, sign, 600).ratio.toFixed(2), 'x sign');
