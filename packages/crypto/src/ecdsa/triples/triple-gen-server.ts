import { CryptoError } from '../../errors.js';

import { baseOtReceive } from '../ot/base-ot.js';
import { commit } from './commit.js';
import { Fn, type Pt, firstFailingBaseCheck, mulG, mulPublic, mulSecret } from '../common/group.js';
import { mulSenderRound } from './multiplication.js';
import { evalScalarPoly } from './polynomial.js';
import { type Proof, ProofBatch, proveDlog, proveDlogEq } from './proofs.js';
import { type ProtocolState, checkState, newState, runStep } from '../common/state.js';
import { type Triple, makeTriple } from './triple.js';
import { TRIPLE_GEN_KIND, type TripleGenResult, type TripleGenState } from './triple-gen-client.js';
import {
  CLIENT_ID,
  DEFAULT_MAX_TRIPLES_PER_RUN,
  SERVER_ID,
  confirmationHash,
  polyCommitBytes,
  tripleTranscript,
  laterStepState,
  stateData,
  triplesDigest,
} from './triple-gen-common.js';
import { checkPeerOpening } from './triple-gen-opening.js';
import { decodePolySecrets, encodePolySecrets, freshPolys } from './triple-gen-polys.js';
import {
  type TriplesMsg1Reply,
  type TriplesMsg2Reply,
  type TriplesMsg3Reply,
  decodeTriplesMsg1,
  decodeTriplesMsg2,
  decodeTriplesMsg3,
  encOpening,
  encRound4,
  msgHeader,
  sendsCommitments,
} from './triple-gen-wire.js';
import { decArray, decBytes, decScalar, decStatePoint, encBytes, encScalar, encScalarBlob, encStatePoint, expectSession } from '../common/wire.js';
import { toHex } from '../common/wire.js';

/*
 * Server (P1, x = 2) side of batched triple generation: it answers each client message in one
 * step. It is the base-OT receiver, the OT-extension sender (holder of Δ, so it runs the KOS
 * check) and the MtA sender.
 *   awaiting-1: triples/1 -> triples/1-reply (Com_1, base-OT X_i)
 *   answered-1: triples/2 -> triples/2-reply (round-3 checks, KOS check, MtA, C_2, Ĉ_2, c-share)
 *   answered-2: triples/3 -> triples/3-reply + output (round-5 checks)
 */

const PEER = { culprits: [CLIENT_ID] };
const OWN = { culprits: [] };
const fail = (code: 'CHECK_FAILED' | 'INVALID_COMMITMENT' | 'INVALID_PROOF' | 'INVALID_SHARE', msg: string) => new CryptoError(code, msg, [CLIENT_ID]);

/** A fresh server state waiting for the client's first message. */
export function tripleGenServerStart(params: { maxCount?: number } = {}): TripleGenState {
  const maxCount = params.maxCount ?? DEFAULT_MAX_TRIPLES_PER_RUN;
  if (!Number.isInteger(maxCount) || maxCount < 1 || maxCount > 4 * DEFAULT_MAX_TRIPLES_PER_RUN) {
    throw new CryptoError('INVALID_INPUT', `maxCount must be an integer in [1, ${4 * DEFAULT_MAX_TRIPLES_PER_RUN}]`);
  }
  return newState(TRIPLE_GEN_KIND, 'server', 'awaiting-1', 0, undefined, { max_count: maxCount });
}

export function tripleGenServerStep(stateIn: TripleGenState, incoming: unknown): TripleGenResult {
  const state = checkState(stateIn, TRIPLE_GEN_KIND, 'server');
  return runStep(state, () => {
    switch (state.phase) {
      case 'awaiting-1':
        return onMsg1(state, incoming);
      case 'answered-1':
        return onMsg2(state, incoming);
      case 'answered-2':
        return onMsg3(state, incoming);
      default:
        throw new CryptoError('INVALID_INPUT', `unknown server phase ${state.phase}`);
    }
  });
}


function onMsg1(state: ProtocolState, incoming: unknown): TripleGenResult {
  const m = decodeTriplesMsg1(incoming, stateData(state).max_count as number, PEER);
  const sid = toHex(m.sessionId);
  const polys = freshPolys(m.count);
  const { commitment, randomizer } = commit(polyCommitBytes(m.sessionId, SERVER_ID, polys.E, polys.F, polys.L));
  const confirmation = confirmationHash(m.sessionId, m.count, m.commitment, commitment);
  const ot = baseOtReceive(m.Y, confirmation);
  const outgoing: TriplesMsg1Reply = {
    ...msgHeader('triples/1-reply'),
    session_id: sid,
    commitment: encBytes(commitment),
    base_ot_x: ot.X.map(encBytes),
  };
  const next = newState(TRIPLE_GEN_KIND, 'server', 'answered-1', state.step + 1, sid, {
    count: m.count,
    polys: encodePolySecrets(polys),
    randomizer: encBytes(randomizer),
    client_commitment: encBytes(m.commitment),
    confirmation: encBytes(confirmation),
    ot_delta: encBytes(ot.delta),
    ot_keys: ot.keys.map(encBytes),
  });
  ot.delta.fill(0);
  ot.keys.forEach((k) => k.fill(0));
  return { done: false, state: next, outgoing };
}

function onMsg2(state: ProtocolState, incoming: unknown): TripleGenResult {
  const { d, sid, sessionId, count } = laterStepState(state);
  const polys = decodePolySecrets(d.polys, count);
  const confirmation = decBytes(d.confirmation, 'confirmation', 32, OWN);
  const m = decodeTriplesMsg2(incoming, count, PEER);
  expectSession(m.sessionId, sid, PEER);
  const o = m.opening;
  const tr = tripleTranscript(sessionId, count, confirmation);

  // Round 3 checks on the client's opening (spec 3.1-3.7).
  const { E, F, a, b } = checkPeerOpening({
    sessionId,
    count,
    polys,
    confirmation,
    peerCommitment: decBytes(d.client_commitment, 'client_commitment', 32, OWN),
    opening: o,
    ownId: SERVER_ID,
    peerId: CLIENT_ID,
    transcript: tr,
  });

  // Multiplication: OT extension with the KOS check, then the MtA sender side.
  const delta = decBytes(d.ot_delta, 'ot_delta', 16, OWN);
  const keys = decArray(d.ot_keys, 'ot_keys', 128, OWN, (x, f) => decBytes(x, f, 32, OWN));
  let mul: { c: bigint[]; l0: bigint[] };
  try {
    mul = mulSenderRound(delta, keys, confirmation, polys.e.map((e, k) => ({ a: e[0]!, b: polys.f[k]![0]! })), { ot: m.ot, chi1: m.chi1, seeds: m.seeds }, CLIENT_ID);
  } finally {
    // Whatever the outcome, this base-OT state is never used again (a failed KOS check may
    // have leaked bits of Δ; runStep also drops it from the persisted state).
    delta.fill(0);
    keys.forEach((k) => k.fill(0));
  }

  // Round 3 (own C_2) and round 4 (Ĉ_2, shares of c).
  const C2: Pt[] = [];
  const proofsC: Proof[] = [];
  const CHat: Pt[] = [];
  const proofsCHat: Proof[] = [];
  const sharesToClient: bigint[] = [];
  const keep = [];
  for (let k = 0; k < count; k++) {
    const F0 = F[k]![0]!;
    const e0 = polys.e[k]![0]!;
    const Ck = mulSecret(F0, e0);
    C2.push(Ck);
    proofsC.push(proveDlogEq(tr.fork('dlogeq0', SERVER_ID, k), polys.E[k]![0]!, F0, Ck, e0));
    const l0 = mul.l0[k]!;
    const ch = mulG(l0);
    CHat.push(ch);
    proofsCHat.push(proveDlog(tr.fork('dlog2', SERVER_ID, k), ch, l0));
    const lPoly = [l0, ...polys.l[k]!.slice(1)];
    sharesToClient.push(evalScalarPoly(lPoly, CLIENT_ID));
    keep.push({
      a: encScalar(a[k]!),
      b: encScalar(b[k]!),
      c_own: encScalar(evalScalarPoly(lPoly, SERVER_ID)),
      big_a: encStatePoint(E[k]![0]!),
      big_b: encStatePoint(F0),
      client_e0: encStatePoint(o.E[k]![0]!),
      big_c_own: encStatePoint(Ck),
      big_c_hat_own: encStatePoint(ch),
      big_l1: encStatePoint(polys.L[k]![1]!.add(o.L[k]![1]!)),
    });
  }
  mul.l0.fill(0n);
  // An earlier client sends (and reads) proofs without their commitments: answer in kind.
  const withCommitments = sendsCommitments(o.proofsE);
  const outgoing: TriplesMsg2Reply = {
    ...msgHeader('triples/2-reply'),
    ...encOpening(
      {
        confirmation,
        E: polys.E,
        F: polys.F,
        L: polys.L,
        randomizer: decBytes(d.randomizer, 'randomizer', 32, OWN),
        proofsE: polys.e.map((e, k) => proveDlog(tr.fork('dlog0', SERVER_ID, k), polys.E[k]![0]!, e[0]!)),
        proofsF: polys.f.map((f, k) => proveDlog(tr.fork('dlog1', SERVER_ID, k), polys.F[k]![0]!, f[0]!)),
        sharesE: polys.e.map((e) => evalScalarPoly(e, CLIENT_ID)),
        sharesF: polys.f.map((f) => evalScalarPoly(f, CLIENT_ID)),
      },
      sid,
      withCommitments,
    ),
    mta_c: encScalarBlob(mul.c),
    ...encRound4({ C: C2, proofsC, CHat, proofsCHat, sharesC: sharesToClient }, withCommitments),
  };
  const next = newState(TRIPLE_GEN_KIND, 'server', 'answered-2', state.step + 1, sid, {
    count,
    confirmation: encBytes(confirmation),
    triples: keep,
  });
  return { done: false, state: next, outgoing };
}

function onMsg3(state: ProtocolState, incoming: unknown): TripleGenResult {
  const { d, sid, sessionId, count } = laterStepState(state);
  const confirmation = decBytes(d.confirmation, 'confirmation', 32, OWN);
  const keep = d.triples as Record<string, unknown>[];
  const m = decodeTriplesMsg3(incoming, count, PEER);
  expectSession(m.sessionId, sid, PEER);
  const r4 = m.round4;
  const tr = tripleTranscript(sessionId, count, confirmation);
  const triples: Triple[] = [];
  const pubs: { A: Pt; B: Pt; C: Pt }[] = [];
  const L2s: Pt[] = [];
  const cs: bigint[] = [];
  // Round 4 (spec 4.1-4.3) and round 5 proof checks: the client's C_1 with its dlog-equality
  // proof and Ĉ_1 with its dlog proof, as one batch.
  const Bs = keep.map((t) => decStatePoint(t.big_b, 'big_b', OWN));
  const proofs = new ProofBatch();
  for (let k = 0; k < count; k++) {
    proofs.dlogEq(tr.fork('dlogeq0', CLIENT_ID, k), decStatePoint(keep[k]!.client_e0, 'client_e0', OWN), Bs[k]!, r4.C[k]!, r4.proofsC[k]!, `dlog-equality proof of C_1 fails (triple ${k})`);
    proofs.dlog(tr.fork('dlog2', CLIENT_ID, k), r4.CHat[k]!, r4.proofsCHat[k]!, `dlog proof of Ĉ_1 fails (triple ${k})`);
  }
  const badProof = proofs.firstFailure();
  if (badProof !== undefined) throw fail('INVALID_PROOF', badProof);
  for (let k = 0; k < count; k++) {
    const t = keep[k]!;
    const B = Bs[k]!;
    const C = r4.C[k]!.add(decStatePoint(t.big_c_own, 'big_c_own', OWN));
    // Round 5 checks (spec 5.1-5.7).
    const L0 = r4.CHat[k]!.add(decStatePoint(t.big_c_hat_own, 'big_c_hat_own', OWN));
    if (!L0.equals(C)) throw fail('CHECK_FAILED', `C ≠ L(0): the multiplication result is wrong (triple ${k})`);
    const c = Fn.add(decScalar(t.c_own, 'c_own', OWN), r4.sharesC[k]!);
    L2s.push(L0.add(mulPublic(decStatePoint(t.big_l1, 'big_l1', OWN), BigInt(SERVER_ID))));
    cs.push(c);
    const A = decStatePoint(t.big_a, 'big_a', OWN);
    pubs.push({ A, B, C });
    triples.push(makeTriple(SERVER_ID, sid, k, { a: decScalar(t.a, 'a', OWN), b: decScalar(t.b, 'b', OWN), c, A, B, C }));
  }
  // L(2) = c_2·G for every triple, as one batch (c_2 is this party's secret share).
  const bad = firstFailingBaseCheck(L2s, cs);
  if (bad >= 0) throw fail('INVALID_SHARE', `L(2) ≠ c_2·G: bad share of c (triple ${bad})`);
  const outgoing: TriplesMsg3Reply = { ...msgHeader('triples/3-reply'), session_id: sid, digest: encBytes(triplesDigest(sessionId, pubs)) };
  const done = newState(TRIPLE_GEN_KIND, 'server', 'done', state.step + 1, sid, {});
  delete done.data;
  return { done: true, state: done, output: triples, outgoing };
}
