import { equalBytes } from '@noble/curves/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { CryptoError } from '../../errors.js';

import { Fn, type Pt, lagrangeAtZero, mulGPublic, mulPublic } from '../common/group.js';
import { type EcdsaKeyShare, readKeyShare } from '../common/key-share.js';
import { type Presignature, makePresignature } from './presignature.js';
import { type ProtocolState, type StepResult, checkState, newState, runStep } from '../common/state.js';
import { type Triple, type TripleValues, consumeTriple, readTriple, triplePublicId } from '../triples/triple.js';
import { CLIENT_ID, PARTICIPANTS, SERVER_ID } from '../triples/triple-gen-common.js';
import { u32 } from '../common/transcript.js';
import {
  type Dec,
  decArray,
  decBytes,
  decInt,
  decMessage,
  decPoint,
  decScalar,
  decScalarBlob,
  decStatePoint,
  encBytes,
  encStatePoint,
  encScalar,
  encScalarBlob,
  expectSession,
  header,
} from '../common/wire.js';
import { toHex } from '../common/wire.js';

/*
 * Presign (cait-sith presign.rs) for M presignatures at once, each from two fresh triples:
 * triple0 (k, d, e = k·d) and triple1 (a, b, c = a·b), and the key shares x_i.
 *   R1: broadcast e'_i = λ_i·e_i; check e ≠ 0 parts and e·G = E.
 *   R2: broadcast α_i = λ_i(k_i + a_i), β_i = λ_i(x_i + b_i); check α·G = K + A, β·G = X + B.
 *   Output: R = e⁻¹·D, k_i, σ_i = α·x_i − β·a_i + c_i.
 * Two round trips, client first: presign/1 (e'_1) -> presign/1-reply (e'_2, α_2, β_2; the
 * server checked e first) -> presign/2 (α_1, β_1; the client checked everything) ->
 * presign/2-reply (digest of the R values) + the server's output.
 * Triples are marked consumed when the party starts: they must never enter a second presign.
 */

export const PRESIGN_KIND = 'ecdsa-presign';
export const MAX_PRESIGNATURES_PER_RUN = 128;

export type PresignState = ProtocolState;
export type PresignMessage = PresignMsg1 | PresignMsg1Reply | PresignMsg2 | PresignMsg2Reply;
export type PresignResult = StepResult<PresignState, PresignMessage, Presignature[]>;

export interface TripleRef {
  session_id: string;
  index: number;
}
export interface PresignMsg1 {
  v: 1; ciphersuite: string; type: 'presign/1';
  session_id: string; count: number; triples: TripleRef[]; triples_digest: string; e_prime: string;
}
export interface PresignMsg1Reply {
  v: 1; ciphersuite: string; type: 'presign/1-reply';
  session_id: string; e_prime: string; alpha: string; beta: string;
}
export interface PresignMsg2 {
  v: 1; ciphersuite: string; type: 'presign/2';
  session_id: string; alpha: string; beta: string;
}
export interface PresignMsg2Reply {
  v: 1; ciphersuite: string; type: 'presign/2-reply';
  session_id: string; digest: string;
}

/** Inputs of either party: its key share and M pairs [triple0, triple1] of unused triples. */
export interface PresignParams {
  keyShare: EcdsaKeyShare;
  triples: [Triple, Triple][];
}

const LAMBDA = { [CLIENT_ID]: lagrangeAtZero(PARTICIPANTS, CLIENT_ID), [SERVER_ID]: lagrangeAtZero(PARTICIPANTS, SERVER_ID) } as const;

interface Prepared {
  x: bigint;
  X: Pt;
  publicKey: Uint8Array;
  pairs: [TripleValues, TripleValues][];
  refs: TripleRef[];
  digest: Uint8Array;
}

function prepare(params: PresignParams, id: 1 | 2): Prepared {
  if (typeof params !== 'object' || params === null) throw new CryptoError('INVALID_INPUT', 'presign params must be an object');
  const key = readKeyShare(params.keyShare, id);
  const list = params.triples;
  if (!Array.isArray(list) || list.length < 1 || list.length > MAX_PRESIGNATURES_PER_RUN) {
    throw new CryptoError('INVALID_INPUT', `triples must hold 1..${MAX_PRESIGNATURES_PER_RUN} pairs`);
  }
  const seen = new Set<string>();
  const pairs: [TripleValues, TripleValues][] = [];
  const refs: TripleRef[] = [];
  const ids: Uint8Array[] = [];
  list.forEach((pair, m) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw new CryptoError('INVALID_INPUT', `triples[${m}] must be a pair`);
    const vals = pair.map((t, h) => {
      const v = readTriple(t, `triples[${m}][${h}]`, id);
      const ref = `${t.session_id}:${t.index}`;
      if (seen.has(ref)) throw new CryptoError('STATE_CONSUMED', `triple ${ref} appears twice: a triple is single-use`);
      seen.add(ref);
      refs.push({ session_id: t.session_id, index: t.index });
      ids.push(triplePublicId(t));
      return v;
    });
    pairs.push([vals[0]!, vals[1]!]);
  });
  // Validated: now the triples are spent, whatever happens next.
  list.forEach((pair) => pair.forEach(consumeTriple));
  const digest = sha256(concatBytes(utf8ToBytes('svc/ecdsa presign triples v1'), u32(ids.length), ...ids));
  return { ...key, pairs, refs, digest };
}

function presigDigest(sessionId: Uint8Array, Rs: Pt[]): Uint8Array {
  return sha256(concatBytes(utf8ToBytes('svc/ecdsa presign digest v1'), sessionId, u32(Rs.length), ...Rs.map((R) => R.toBytes(true))));
}

/** Private per-presignature values persisted between the two steps. */
function encodeSecrets(p: Prepared, ePrime: bigint[]) {
  return {
    x: encScalar(p.x),
    public_key: encBytes(p.publicKey),
    items: p.pairs.map(([t0, t1], m) => ({
      k: encScalar(t0.a),
      big_k: encStatePoint(t0.A),
      big_d: encStatePoint(t0.B),
      big_e: encStatePoint(t0.C),
      a: encScalar(t1.a),
      b: encScalar(t1.b),
      c: encScalar(t1.c),
      big_a: encStatePoint(t1.A),
      big_b: encStatePoint(t1.B),
      e_prime: encScalar(ePrime[m]!),
    })),
  };
}

interface Item {
  k: bigint; K: Pt; D: Pt; E: Pt; a: bigint; b: bigint; c: bigint; A: Pt; B: Pt; ePrime: bigint;
}

function decodeSecrets(d: Record<string, unknown>, count: number) {
  const own: Dec = { culprits: [] };
  const items = decArray(d.items, 'items', count, own, (v) => {
    const o = v as Record<string, unknown>;
    return {
      k: decScalar(o.k, 'k', own), K: decStatePoint(o.big_k, 'big_k', own), D: decStatePoint(o.big_d, 'big_d', own),
      E: decStatePoint(o.big_e, 'big_e', own), a: decScalar(o.a, 'a', own), b: decScalar(o.b, 'b', own),
      c: decScalar(o.c, 'c', own), A: decStatePoint(o.big_a, 'big_a', own), B: decStatePoint(o.big_b, 'big_b', own),
      ePrime: decScalar(o.e_prime, 'e_prime', own),
    } satisfies Item;
  });
  const publicKey = decBytes(d.public_key, 'public_key', 33, own);
  return { x: decScalar(d.x, 'x', own), X: decPoint(d.public_key, 'public_key', own), publicKey, items };
}

/** e = e'_1 + e'_2 with both parts non-zero and e·G = E (spec R1 check). */
function checkE(items: Item[], theirs: bigint[], peer: number): bigint[] {
  return items.map((it, m) => {
    if (theirs[m] === 0n) throw new CryptoError('CHECK_FAILED', `e' of the peer is zero (presignature ${m})`, [peer]);
    const e = Fn.add(it.ePrime, theirs[m]!);
    // e is the opened sum e'_1 + e'_2, public: a variable-time multiplication is fine.
    if (e === 0n || !mulGPublic(e).equals(it.E)) throw new CryptoError('CHECK_FAILED', `e·G ≠ E: triple0 is inconsistent (presignature ${m})`, [peer]);
    return e;
  });
}

function alphaBeta(id: 1 | 2, x: bigint, it: Item) {
  const l = LAMBDA[id];
  return { alpha: Fn.mul(l, Fn.add(it.k, it.a)), beta: Fn.mul(l, Fn.add(x, it.b)) };
}

/** Spec R2 checks and the output (R, k_i, σ_i). */
function finish(id: 1 | 2, sessionHex: string, s: ReturnType<typeof decodeSecrets>, e: bigint[], alpha: bigint[], beta: bigint[], peer: number): { presigs: Presignature[]; digest: Uint8Array } {
  const Rs: Pt[] = [];
  const presigs = s.items.map((it, m) => {
    // α and β are the opened sums of both parties' parts, public: variable time is fine.
    if (!mulGPublic(alpha[m]!).equals(it.K.add(it.A))) throw new CryptoError('CHECK_FAILED', `α·G ≠ K + A (presignature ${m})`, [peer]);
    if (!mulGPublic(beta[m]!).equals(s.X.add(it.B))) throw new CryptoError('CHECK_FAILED', `β·G ≠ X + B: key shares or triple1 inconsistent (presignature ${m})`, [peer]);
    const R = mulPublic(it.D, Fn.inv(e[m]!));
    const sigma = Fn.add(Fn.sub(Fn.mul(alpha[m]!, s.x), Fn.mul(beta[m]!, it.a)), it.c);
    Rs.push(R);
    return makePresignature(id, sessionHex, m, s.publicKey, { R, k: it.k, sigma });
  });
  return { presigs, digest: presigDigest(decBytes(sessionHex, 'session_id', 32, { culprits: [] }), Rs) };
}

// ---- client -------------------------------------------------------------------------------

const FROM_SERVER: Dec = { culprits: [SERVER_ID] };
const FROM_CLIENT: Dec = { culprits: [CLIENT_ID] };

export function presignClientStart(params: PresignParams): { state: PresignState; outgoing: PresignMsg1 } {
  const p = prepare(params, CLIENT_ID);
  const sid = toHex(randomBytes(32));
  const ePrime = p.pairs.map(([t0]) => Fn.mul(LAMBDA[CLIENT_ID], t0.c));
  const state = newState(PRESIGN_KIND, 'client', 'sent-1', 0, sid, { count: p.pairs.length, ...encodeSecrets(p, ePrime) });
  return {
    state,
    outgoing: {
      ...header('presign/1'),
      session_id: sid,
      count: p.pairs.length,
      triples: p.refs,
      triples_digest: encBytes(p.digest),
      e_prime: encScalarBlob(ePrime),
    },
  };
}

export function presignClientStep(stateIn: PresignState, incoming: unknown): PresignResult {
  const state = checkState(stateIn, PRESIGN_KIND, 'client');
  return runStep(state, () => {
    const d = state.data ?? {};
    const sid = state.session_id!;
    const count = d.count as number;
    if (state.phase === 'sent-1') {
      const m = decMessage(incoming, 'presign/1-reply', ['session_id', 'e_prime', 'alpha', 'beta'], FROM_SERVER);
      expectSession(m.session_id, sid, FROM_SERVER);
      const s = decodeSecrets(d, count);
      const theirE = decScalarBlob(m.e_prime, 'e_prime', count, FROM_SERVER);
      const theirA = decScalarBlob(m.alpha, 'alpha', count, FROM_SERVER);
      const theirB = decScalarBlob(m.beta, 'beta', count, FROM_SERVER);
      const e = checkE(s.items, theirE, SERVER_ID);
      const mine = s.items.map((it) => alphaBeta(CLIENT_ID, s.x, it));
      const alpha = mine.map((v, i) => Fn.add(v.alpha, theirA[i]!));
      const beta = mine.map((v, i) => Fn.add(v.beta, theirB[i]!));
      const { presigs, digest } = finish(CLIENT_ID, sid, s, e, alpha, beta, SERVER_ID);
      const next = newState(PRESIGN_KIND, 'client', 'sent-2', state.step + 1, sid, { presignatures: presigs, digest: encBytes(digest) });
      return {
        done: false,
        state: next,
        outgoing: { ...header('presign/2'), session_id: sid, alpha: encScalarBlob(mine.map((v) => v.alpha)), beta: encScalarBlob(mine.map((v) => v.beta)) },
      };
    }
    if (state.phase === 'sent-2') {
      const m = decMessage(incoming, 'presign/2-reply', ['session_id', 'digest'], FROM_SERVER);
      expectSession(m.session_id, sid, FROM_SERVER);
      if (!equalBytes(decBytes(m.digest, 'digest', 32, FROM_SERVER), decBytes(d.digest, 'digest', 32, { culprits: [] }))) {
        throw new CryptoError('CHECK_FAILED', 'server reports different presignatures (digest mismatch)', [SERVER_ID]);
      }
      const done = newState(PRESIGN_KIND, 'client', 'done', state.step + 1, sid, {});
      delete done.data;
      return { done: true, state: done, output: structuredClone(d.presignatures) as Presignature[] };
    }
    throw new CryptoError('INVALID_INPUT', `unknown presign client phase ${state.phase}`);
  });
}

// ---- server -------------------------------------------------------------------------------

/** Which triples (by generation session and index, in pairs) a presign/1 message asks for. */
export function presignRequestedTriples(incoming: unknown): TripleRef[] {
  const m = decMessage(incoming, 'presign/1', ['session_id', 'count', 'triples', 'triples_digest', 'e_prime'], FROM_CLIENT);
  const count = decInt(m.count, 'count', 1, MAX_PRESIGNATURES_PER_RUN, FROM_CLIENT);
  return decArray(m.triples, 'triples', 2 * count, FROM_CLIENT, (v, f) => {
    const o = v as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || Object.keys(o).sort().join() !== 'index,session_id') {
      throw new CryptoError('INVALID_ENCODING', `${f} must be {session_id, index}`, [CLIENT_ID]);
    }
    return { session_id: encBytes(decBytes(o.session_id, `${f}.session_id`, 32, FROM_CLIENT)), index: decInt(o.index, `${f}.index`, 0, 1 << 20, FROM_CLIENT) };
  });
}

/** Server state holding its key share and the triples the client asked for (consumed now). */
export function presignServerStart(params: PresignParams): PresignState {
  const p = prepare(params, SERVER_ID);
  return newState(PRESIGN_KIND, 'server', 'awaiting-1', 0, undefined, {
    count: p.pairs.length,
    refs: p.refs,
    triples_digest: encBytes(p.digest),
    ...encodeSecrets(p, p.pairs.map(([t0]) => Fn.mul(LAMBDA[SERVER_ID], t0.c))),
  });
}

export function presignServerStep(stateIn: PresignState, incoming: unknown): PresignResult {
  const state = checkState(stateIn, PRESIGN_KIND, 'server');
  return runStep(state, () => {
    const d = state.data ?? {};
    const count = d.count as number;
    if (state.phase === 'awaiting-1') {
      const refs = presignRequestedTriples(incoming);
      const m = decMessage(incoming, 'presign/1', ['session_id', 'count', 'triples', 'triples_digest', 'e_prime'], FROM_CLIENT);
      const sid = encBytes(decBytes(m.session_id, 'session_id', 32, FROM_CLIENT));
      if (JSON.stringify(refs) !== JSON.stringify(d.refs)) throw new CryptoError('CHECK_FAILED', 'presign/1 names other triples than the server loaded', [CLIENT_ID]);
      if (!equalBytes(decBytes(m.triples_digest, 'triples_digest', 32, FROM_CLIENT), decBytes(d.triples_digest, 'triples_digest', 32, { culprits: [] }))) {
        throw new CryptoError('CHECK_FAILED', 'the client holds different public triples (triples_digest mismatch)', [CLIENT_ID]);
      }
      const s = decodeSecrets(d, count);
      const e = checkE(s.items, decScalarBlob(m.e_prime, 'e_prime', count, FROM_CLIENT), CLIENT_ID);
      const mine = s.items.map((it) => alphaBeta(SERVER_ID, s.x, it));
      const next = newState(PRESIGN_KIND, 'server', 'answered-1', state.step + 1, sid, {
        ...d,
        e: encScalarBlob(e),
        alpha: encScalarBlob(mine.map((v) => v.alpha)),
        beta: encScalarBlob(mine.map((v) => v.beta)),
      });
      return {
        done: false,
        state: next,
        outgoing: {
          ...header('presign/1-reply'),
          session_id: sid,
          e_prime: encScalarBlob(s.items.map((it) => it.ePrime)),
          alpha: encScalarBlob(mine.map((v) => v.alpha)),
          beta: encScalarBlob(mine.map((v) => v.beta)),
        },
      };
    }
    if (state.phase === 'answered-1') {
      const sid = state.session_id!;
      const own: Dec = { culprits: [] };
      const m = decMessage(incoming, 'presign/2', ['session_id', 'alpha', 'beta'], FROM_CLIENT);
      expectSession(m.session_id, sid, FROM_CLIENT);
      const s = decodeSecrets(d, count);
      const e = decScalarBlob(d.e, 'e', count, own);
      const myA = decScalarBlob(d.alpha, 'alpha', count, own);
      const myB = decScalarBlob(d.beta, 'beta', count, own);
      const alpha = decScalarBlob(m.alpha, 'alpha', count, FROM_CLIENT).map((v, i) => Fn.add(v, myA[i]!));
      const beta = decScalarBlob(m.beta, 'beta', count, FROM_CLIENT).map((v, i) => Fn.add(v, myB[i]!));
      const { presigs, digest } = finish(SERVER_ID, sid, s, e, alpha, beta, CLIENT_ID);
      const done = newState(PRESIGN_KIND, 'server', 'done', state.step + 1, sid, {});
      delete done.data;
      return { done: true, state: done, output: presigs, outgoing: { ...header('presign/2-reply'), session_id: sid, digest: encBytes(digest) } };
    }
    throw new CryptoError('INVALID_INPUT', `unknown presign server phase ${state.phase}`);
  });
}
