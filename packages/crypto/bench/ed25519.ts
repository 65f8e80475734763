import { mulAddUnsafe } from '@noble/curves/abstract/curve.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, equalBytes } from '@noble/curves/utils.js';
import { goalLine } from '@svc/tooling/bench-goal';
import { createEd25519Suite, createFrostWireCodec, keygenSeedEd25519, type SigningCommitments } from '../src/index.js';
import { cpuRatio, measure, printTable } from './measure.js';

// Ed25519 FROST 2-of-2: each protocol step, one complete signature with both parties' work,
// and noble's single-party ed25519.sign as the baseline, all in the same process and run.
//
// The client and the server are two suites with their own point caches, as in two processes,
// and every commitment crosses the wire codec (JSON) to the other party, which checks its points
// on decoding as tss-api and the SDK do. So each party checks the peer's two fresh commitment
// points on every signature (by the subgroup witnesses round 1 sends along); what stays cached
// between signatures is what stays cached in a running service: the party's own key package
// (decoded once) and its own commitments (computed by itself).
const msg = new TextEncoder().encode('a 64-byte message standing in for a Solana transaction message.');
const key = keygenSeedEd25519();
const party = (keyPackage: typeof key.keygen1) => {
  const suite = createEd25519Suite();
  const wire = createFrostWireCodec(suite, 32, 32);
  const json = <T>(v: T): unknown => JSON.parse(JSON.stringify(v));
  // A service decodes its stored key package before signing: that is where the group key and
  // verifying shares are checked (once per process, then cached).
  const own = wire.decodeKeyPackage(json(wire.encodeKeyPackage(keyPackage)));
  const pkp = wire.decodePublicKeyPackage(json(wire.encodePublicKeyPackage(key.publicKeyPackage)));
  const receive = (c: SigningCommitments) => wire.decodeSigningCommitments(json(wire.encodeSigningCommitments(c)));
  return { suite, own, pkp, receive };
};
const client = party(key.keygen1);
const server = party(key.keygen2);

const rounds1 = () => ({ c: client.suite.round1(client.own), s: server.suite.round1(server.own) });
type R1 = ReturnType<typeof rounds1>;
/** Server round 2 as tss-api runs it: decode the client's commitment, then sign. */
const serverRound2 = (r: R1) =>
  server.suite.round2({ msg, keyPackage: server.own, nonces: r.s.nonces, commitments: [server.receive(r.c.commitments), r.s.commitments] });
/** Client round 2 as the SDK runs it: decode the server's commitment, then sign. */
const clientRound2 = (r: R1) => {
  const commitment0 = client.receive(r.s.commitments);
  const share = client.suite.round2({ msg, keyPackage: client.own, nonces: r.c.nonces, commitments: [r.c.commitments, commitment0] });
  return { commitment0, share };
};
const aggregate = (r: R1, commitment0: SigningCommitments, share1: Uint8Array, share0: Uint8Array) =>
  client.suite.aggregate({ msg, publicKeyPackage: client.pkp, commitments: [r.c.commitments, commitment0], signatureShares: { 1: share1, 2: share0 } });
const sharesReady = () => {
  const r = rounds1();
  const share0 = serverRound2(r);
  const { commitment0, share } = clientRound2(r);
  return { r, commitment0, share1: share, share0 };
};
const fullSignature = () => {
  const r = rounds1();
  const share0 = serverRound2(r);
  const c = clientRound2(r);
  return aggregate(r, c.commitment0, c.share, share0);
};
const secretKey = ed25519.utils.randomSecretKey();
const none = () => undefined;

// Every complete signature must verify (node's Ed25519 would say the same; the SDK tests check that).
if (!ed25519.verify(fullSignature(), msg, key.publicKey)) throw new Error('bench signature does not verify');

const rows = [
  measure('keygen (seed -> 2-of-2 shares)', () => keygenSeedEd25519(), none),
  measure('round 1, client', () => client.suite.round1(client.own), none),
  measure('round 1, server', () => server.suite.round1(server.own), none),
  measure('round 2, client (decode commitment0 + share)', clientRound2, rounds1),
  measure('round 2, server (decode commitment1 + share)', serverRound2, rounds1),
  measure('aggregate (+ verify), client', (a) => aggregate(a.r, a.commitment0, a.share1, a.share0), sharesReady),
  measure('complete 2-of-2 signature', fullSignature, none),
  measure('noble ed25519.sign (1 party)', () => ed25519.sign(msg, secretKey), none),
];
printTable('Ed25519 FROST 2-of-2 (createFROST FROST-ED25519-SHA512-v1, @noble/curves 2.4.0)', rows);

// What one signature cannot do without, in noble's own operations (docs/performance.md adds
// them up): per party, its own two commitments made (each one constant-time base multiplication;
// signShare's re-derivation of them is remembered, checked-point.ts), the peer's two commitments
// proven in the subgroup by their witnesses (decode W, [8]W, encode), the group commitment's
// two-point MSM (in each signShare and again in aggregate). The subgroup check [L]P and a
// plain decode are printed beside them: what a peer without witnesses costs instead.
const P = ed25519.Point;
const scalar = () => P.Fn.create(bytesToNumberLE(ed25519.utils.randomSecretKey())) || 1n;
const fresh = () => P.BASE.multiply(scalar());
const freshBytes = () => fresh().toBytes();
// The goal figures and this floor: each a ratio to ed25519.sign measured in alternating
// batches (cpuRatio), so a noisy machine weighs on both sides alike.
const sign = () => ed25519.sign(msg, secretKey);
const floorOp = <S>(name: string, op: (s: S) => unknown, setup: () => S) => {
  const r = cpuRatio(op, setup, sign, 1000);
  console.log(`  ${name.padEnd(46)} ${(r.opUs / 1000).toFixed(3).padStart(8)} ms CPU/op = ${r.ratio.toFixed(2)}x ed25519.sign`);
  return r.ratio;
};
console.log('\nnoble operations (the floor of a signature)');
floorOp('decode a point (strict, fromBytes)', (b: Uint8Array) => P.fromBytes(b), freshBytes);
floorOp('subgroup check of a decoded point ([L]P)', (p: typeof P.BASE) => p.isTorsionFree(), () => P.fromBytes(freshBytes()));
const witnessed = () => {
  const w = fresh();
  return { w: w.toBytes(), p: w.double().double().double().toBytes() };
};
const witness = floorOp('subgroup witness: decode W, [8]W, encode', (a: { w: Uint8Array; p: Uint8Array }) => {
  if (!equalBytes(P.fromBytes(a.w).double().double().double().toBytes(), a.p)) throw new Error('witness');
}, witnessed);
const baseMul = floorOp('BASE.multiply (constant time, blinded)', (n: bigint) => P.BASE.multiply(n), scalar);
const msm2 = floorOp('two-point MSM (group commitment)', (a: { points: (typeof P.BASE)[]; scalars: bigint[] }) => mulAddUnsafe(P, a.points, a.scalars), () => ({ points: [fresh(), fresh()], scalars: [scalar(), scalar()] }));
{
  const party = 2 * baseMul + 2 * witness + msm2;
  const complete = 2 * party + msm2; // + aggregate's MSM (its verification not counted)
  console.log(`  sum of these per signature (lower bound on noble's API): server ${party.toFixed(2)}x, complete ${complete.toFixed(2)}x ed25519.sign`);
}
const complete = cpuRatio(fullSignature, none, sign);
// Setup (both rounds 1) is not timed; the server's round 1 is measured on its own.
const serverSide = cpuRatio(serverRound2, rounds1, sign);
const serverRound1 = cpuRatio(() => server.suite.round1(server.own), none, sign);
console.log(`  ${goalLine('Ed25519 complete 2-of-2 CPU / ed25519.sign', complete.ratio, { op: '<=', target: 15 })}`);
console.log(`  ${goalLine('Ed25519 server CPU per signature (round 1 + round 2) / ed25519.sign', serverSide.ratio + serverRound1.ratio, { op: '<=', target: 6 })}`);
