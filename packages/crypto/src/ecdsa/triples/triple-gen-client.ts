import { equalBytes } from '@noble/curves/utils.js';
import { randomBytes } from '@noble/hashes/utils.js';
import { CryptoError } from '../../errors.js';

import { baseOtSenderKeys, baseOtSenderStart } from '../ot/base-ot.js';
import { commit } from './commit.js';
import { Fn, type Pt, firstFailingBaseCheck, mulG, mulSecret } from '../common/group.js';
import { type MulReceiverState, mulReceiverFinish, mulReceiverRound } from './multiplication.js';
import { addPointPolys, evalPointPoly, evalScalarPoly } from './polynomial.js';
import { ProofBatch, proveDlog, proveDlogEq } from './proofs.js';
import { type ProtocolState, type StepResult, checkState, newState, runStep } from '../common/state.js';
import { type Triple, makeTriple } from './triple.js';
import {
  CLIENT_ID,
  DEFAULT_MAX_TRIPLES_PER_RUN,
  SERVER_ID,
  confirmationHash,
  polyCommitBytes,
  tripleTranscript,
  laterStepState,
  triplesDigest,
} from './triple-gen-common.js';
import { checkPeerOpening } from './triple-gen-opening.js';
import { decodePolySecrets, encodePolySecrets, freshPolys } from './triple-gen-polys.js';
import {
  type TripleGenMessage,
  type TriplesMsg1,
  type TriplesMsg2,
  type TriplesMsg3,
  decodeTriplesMsg1Reply,
  decodeTriplesMsg2Reply,
  decodeTriplesMsg3Reply,
  encOpening,
  encRound4,
  msgHeader,
} from './triple-gen-wire.js';
import { decBytes, decScalar, decScalarBlob, decStatePoint, encBytes, encPoint, encScalar, encScalarBlob, encStatePoint, expectSession } from '../common/wire.js';
import { toHex } from '../common/wire.js';

/*
 * Client (P0, x = 1) side of batched triple generation: the initiator. It is the base-OT
 * sender, the OT-extension receiver and the MtA receiver. Three round trips:
 *   start            -> triples/1        (Com_0, base-OT Y)
 *   triples/1-reply  -> triples/2        (Confirm, opening, proofs, shares, OT extension + KOS, MtA χ)
 *   triples/2-reply  -> triples/3        (C_0, Ĉ_0 with proofs, c-share; client has its triples)
 *   triples/3-reply  -> output           (server's digest of the public triples matches ours)
 */

export const TRIPLE_GEN_KIND = 'ecdsa-triple-gen';
const PEER = { culprits: [SERVER_ID] };
const OWN = { culprits: [] };

export type TripleGenState = ProtocolState;
export type TripleGenResult = StepResult<TripleGenState, TripleGenMessage, Triple[]>;

export function tripleGenClientStart(params: { count: number }): { state: TripleGenState; outgoing: TriplesMsg1 } {
  const count = params?.count;
  if (!Number.isInteger(count) || count < 1 || count > 4 * DEFAULT_MAX_TRIPLES_PER_RUN) {
    throw new CryptoError('INVALID_INPUT', `count must be an integer in [1, ${4 * DEFAULT_MAX_TRIPLES_PER_RUN}]`);
  }
  const sessionId = randomBytes(32);
  const polys = freshPolys(count);
  const { commitment, randomizer } = commit(polyCommitBytes(sessionId, CLIENT_ID, polys.E, polys.F, polys.L));
  const { y, Y } = baseOtSenderStart();
  const sid = toHex(sessionId);
  const state = newState(TRIPLE_GEN_KIND, 'client', 'sent-1', 0, sid, {
    count,
    polys: encodePolySecrets(polys),
    randomizer: encBytes(randomizer),
    commitment: encBytes(commitment),
    y: encScalar(y),
    big_y: encStatePoint(Y),
  });
  return {
    state,
    outgoing: { ...msgHeader('triples/1'), session_id: sid, count, commitment: encBytes(commitment), base_ot_y: encPoint(Y) },
  };
}

export function tripleGenClientStep(stateIn: TripleGenState, incoming: unknown): TripleGenResult {
  const state = checkState(stateIn, TRIPLE_GEN_KIND, 'client');
  return runStep(state, () => {
    switch (state.phase) {
      case 'sent-1':
        return afterReply1(state, incoming);
      case 'sent-2':
        return afterReply2(state, incoming);
      case 'sent-3':
        return afterReply3(state, incoming);
      default:
        throw new CryptoError('INVALID_INPUT', `unknown client phase ${state.phase}`);
    }
  });
}


function afterReply1(state: ProtocolState, incoming: unknown): TripleGenResult {
  const { d, sid, sessionId, count } = laterStepState(state);
  const m = decodeTriplesMsg1Reply(incoming, PEER);
  expectSession(m.sessionId, sid, PEER);
  const polys = decodePolySecrets(d.polys, count);
  const com0 = decBytes(d.commitment, 'commitment', 32, OWN);
  const confirmation = confirmationHash(sessionId, count, com0, m.commitment);

  const y = decScalar(d.y, 'y', OWN);
  const { k0, k1 } = baseOtSenderKeys(y, decStatePoint(d.big_y, 'big_y', OWN), m.X, confirmation);
  const inputs = polys.e.map((e, k) => ({ a: e[0]!, b: polys.f[k]![0]! }));
  const mul = mulReceiverRound(k0, k1, confirmation, inputs);
  k0.forEach((k) => k.fill(0));
  k1.forEach((k) => k.fill(0));

  const tr = tripleTranscript(sessionId, count, confirmation);
  const opening = {
    confirmation,
    E: polys.E,
    F: polys.F,
    L: polys.L,
    randomizer: decBytes(d.randomizer, 'randomizer', 32, OWN),
    proofsE: polys.e.map((e, k) => proveDlog(tr.fork('dlog0', CLIENT_ID, k), polys.E[k]![0]!, e[0]!)),
    proofsF: polys.f.map((f, k) => proveDlog(tr.fork('dlog1', CLIENT_ID, k), polys.F[k]![0]!, f[0]!)),
    sharesE: polys.e.map((e) => evalScalarPoly(e, SERVER_ID)),
    sharesF: polys.f.map((f) => evalScalarPoly(f, SERVER_ID)),
  };
  const outgoing: TriplesMsg2 = {
    ...msgHeader('triples/2'),
    ...encOpening(opening, sid, true),
    ot_u: encBytes(mul.msg.ot.u),
    kos_x: encBytes(mul.msg.ot.kosX),
    kos_t: encBytes(mul.msg.ot.kosT),
    mta_chi1: encScalarBlob(mul.msg.chi1),
    mta_seeds: encBytes(concat(mul.msg.seeds)),
  };
  const next = newState(TRIPLE_GEN_KIND, 'client', 'sent-2', state.step + 1, sid, {
    count,
    polys: d.polys,
    server_commitment: encBytes(m.commitment),
    confirmation: encBytes(confirmation),
    mul: encodeMulState(mul.state),
  });
  return { done: false, state: next, outgoing };
}

function afterReply2(state: ProtocolState, incoming: unknown): TripleGenResult {
  const { d, sid, sessionId, count } = laterStepState(state);
  const polys = decodePolySecrets(d.polys, count);
  const confirmation = decBytes(d.confirmation, 'confirmation', 32, OWN);
  const m = decodeTriplesMsg2Reply(incoming, count, PEER);
  expectSession(m.sessionId, sid, PEER);
  const o = m.opening;
  const tr = tripleTranscript(sessionId, count, confirmation);

  // Round 3 checks on the server's opening (spec 3.1-3.7).
  const { E, F, a, b } = checkPeerOpening({
    sessionId,
    count,
    polys,
    confirmation,
    peerCommitment: decBytes(d.server_commitment, 'server_commitment', 32, OWN),
    opening: o,
    ownId: CLIENT_ID,
    peerId: SERVER_ID,
    transcript: tr,
  });

  // Round 4 checks of the server's C_2 and round 5 checks of its Ĉ_2: their proofs, as one batch.
  const r4 = m.round4;
  const proofs = new ProofBatch();
  for (let k = 0; k < count; k++) {
    proofs.dlogEq(tr.fork('dlogeq0', SERVER_ID, k), o.E[k]![0]!, F[k]![0]!, r4.C[k]!, r4.proofsC[k]!, `dlog-equality proof of C_2 fails (triple ${k})`);
    proofs.dlog(tr.fork('dlog2', SERVER_ID, k), r4.CHat[k]!, r4.proofsCHat[k]!, `dlog proof of Ĉ_2 fails (triple ${k})`);
  }
  const badProof = proofs.firstFailure();
  if (badProof !== undefined) throw fail('INVALID_PROOF', badProof);

  // Round 3, own part.
  const C: Pt[] = [];
  const myC: Pt[] = [];
  const myCProofs = [];
  for (let k = 0; k < count; k++) {
    const F0 = F[k]![0]!;
    const Ck = mulSecret(F0, polys.e[k]![0]!);
    myC.push(Ck);
    myCProofs.push(proveDlogEq(tr.fork('dlogeq0', CLIENT_ID, k), polys.E[k]![0]!, F0, Ck, polys.e[k]![0]!));
    C.push(Ck.add(r4.C[k]!));
  }

  // Multiplication output l0 (additive share of a·b), then round 4 / 5.
  const mulState = decodeMulState(d.mul, count);
  const l0 = mulReceiverFinish(mulState, polys.e.map((e, k) => ({ a: e[0]!, b: polys.f[k]![0]! })), m.c);
  const myCHat: Pt[] = [];
  const myCHatProofs = [];
  const sharesToServer: bigint[] = [];
  const triples: Triple[] = [];
  const L1s: Pt[] = [];
  const cs: bigint[] = [];
  for (let k = 0; k < count; k++) {
    const CHat = mulG(l0[k]!);
    myCHat.push(CHat);
    myCHatProofs.push(proveDlog(tr.fork('dlog2', CLIENT_ID, k), CHat, l0[k]!));
    const lPoly = [l0[k]!, ...polys.l[k]!.slice(1)];
    sharesToServer.push(evalScalarPoly(lPoly, SERVER_ID));
    const L = addPointPolys(polys.L[k]!, o.L[k]!);
    L[0] = CHat.add(r4.CHat[k]!);
    if (!L[0].equals(C[k]!)) throw fail('CHECK_FAILED', `C ≠ L(0): the multiplication result is wrong (triple ${k})`);
    const c = Fn.add(evalScalarPoly(lPoly, CLIENT_ID), r4.sharesC[k]!);
    L1s.push(evalPointPoly(L, CLIENT_ID));
    cs.push(c);
    triples.push(makeTriple(CLIENT_ID, sid, k, { a: a[k]!, b: b[k]!, c, A: E[k]![0]!, B: F[k]![0]!, C: C[k]! }));
  }
  l0.fill(0n);
  // L(1) = c_1·G for every triple, as one batch (c_1 is this party's secret share).
  const bad = firstFailingBaseCheck(L1s, cs);
  if (bad >= 0) throw fail('INVALID_SHARE', `L(1) ≠ c_1·G: bad share of c (triple ${bad})`);
  const digest = triplesDigest(sessionId, triples.map((_, k) => ({ A: E[k]![0]!, B: F[k]![0]!, C: C[k]! })));
  const outgoing: TriplesMsg3 = {
    ...msgHeader('triples/3'),
    session_id: sid,
    ...encRound4({ C: myC, proofsC: myCProofs, CHat: myCHat, proofsCHat: myCHatProofs, sharesC: sharesToServer }, true),
  };
  // The triples are held back until the server confirms it derived the same public values.
  const next = newState(TRIPLE_GEN_KIND, 'client', 'sent-3', state.step + 1, sid, { triples, digest: encBytes(digest) });
  return { done: false, state: next, outgoing };
}

function afterReply3(state: ProtocolState, incoming: unknown): TripleGenResult {
  const { d, sid } = laterStepState(state);
  const m = decodeTriplesMsg3Reply(incoming, PEER);
  expectSession(m.sessionId, sid, PEER);
  if (!equalBytes(m.digest, decBytes(d.digest, 'digest', 32, OWN))) {
    throw fail('CHECK_FAILED', 'server reports different public triples (digest mismatch)');
  }
  const triples = structuredClone(d.triples) as Triple[];
  const done = newState(TRIPLE_GEN_KIND, 'client', 'done', state.step + 1, state.session_id, {});
  delete done.data;
  return { done: true, state: done, output: triples };
}

const fail = (code: 'CHECK_FAILED' | 'INVALID_COMMITMENT' | 'INVALID_PROOF' | 'INVALID_SHARE', msg: string) => new CryptoError(code, msg, [SERVER_ID]);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function encodeMulState(s: MulReceiverState) {
  return {
    choice_seed: encBytes(s.choiceSeed),
    chi1: encScalarBlob(s.parts.map((p) => p.chi1)),
    seeds: encBytes(concat(s.parts.map((p) => p.seed))),
    sum_chi_v: encScalarBlob(s.parts.map((p) => p.sumChiV)),
  };
}

function decodeMulState(v: unknown, count: number): MulReceiverState {
  const o = (v ?? {}) as Record<string, unknown>;
  const n = 2 * count;
  const chi1 = decScalarBlob(o.chi1, 'mul.chi1', n, OWN);
  const seeds = decBytes(o.seeds, 'mul.seeds', 32 * n, OWN);
  const sums = decScalarBlob(o.sum_chi_v, 'mul.sum_chi_v', n, OWN);
  return {
    choiceSeed: decBytes(o.choice_seed, 'mul.choice_seed', 32, OWN),
    parts: chi1.map((c, i) => ({ chi1: c, seed: seeds.subarray(32 * i, 32 * i + 32), sumChiV: sums[i]! })),
  };
}
