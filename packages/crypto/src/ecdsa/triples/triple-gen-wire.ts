import { BASE_OTS } from '../ot/base-ot.js';
import { Fn, type Pt } from '../common/group.js';
import { MTA_OTS } from './mta.js';
import { mulRows } from './multiplication.js';
import type { Proof } from './proofs.js';
import { THRESHOLD } from './triple-gen-common.js';
import {
  type Dec,
  decArray,
  decBytes,
  decInt,
  decMessage,
  decPoint,
  decScalar,
  decScalarBlob,
  encBytes,
  encPoint,
  encScalarBlob,
  decUncompressedPoint,
  header,
} from '../common/wire.js';
import { concatBytes } from '@noble/hashes/utils.js';

/*
 * Wire messages of triple generation (client = P0 at x = 1, server = P1 at x = 2). Names
 * follow the spec's symbols in snake_case. Vectors with one entry per triple are JSON arrays;
 * the long OT/MtA vectors are single hex blobs. See docs/crypto/ecdsa.md for the schedule.
 */

export type Hex = string;

export interface TriplesMsg1 {
  v: 1; ciphersuite: string; type: 'triples/1';
  session_id: Hex; count: number; commitment: Hex; base_ot_y: Hex;
}
export interface TriplesMsg1Reply {
  v: 1; ciphersuite: string; type: 'triples/1-reply';
  session_id: Hex; commitment: Hex; base_ot_x: Hex[];
}
interface OpeningFields {
  session_id: Hex; confirmation: Hex;
  big_e: Hex[][]; big_f: Hex[][]; big_l: Hex[][]; randomizer: Hex;
  proofs_e: Hex[]; proofs_f: Hex[]; shares_e: Hex; shares_f: Hex;
}
export interface TriplesMsg2 extends OpeningFields {
  v: 1; ciphersuite: string; type: 'triples/2';
  ot_u: Hex; kos_x: Hex; kos_t: Hex; mta_chi1: Hex; mta_seeds: Hex;
}
interface Round4Fields {
  big_c: Hex[]; proofs_c: Hex[]; big_c_hat: Hex[]; proofs_c_hat: Hex[]; shares_c: Hex;
}
export interface TriplesMsg2Reply extends OpeningFields, Round4Fields {
  v: 1; ciphersuite: string; type: 'triples/2-reply';
  mta_c: Hex;
}
export interface TriplesMsg3 extends Round4Fields {
  v: 1; ciphersuite: string; type: 'triples/3';
  session_id: Hex;
}
export interface TriplesMsg3Reply {
  v: 1; ciphersuite: string; type: 'triples/3-reply';
  session_id: Hex; digest: Hex;
}
export type TripleGenMessage = TriplesMsg1 | TriplesMsg1Reply | TriplesMsg2 | TriplesMsg2Reply | TriplesMsg3 | TriplesMsg3Reply;

export const msgHeader = header;

// ---- field codecs -------------------------------------------------------------------------

/**
 * A proof is e‖s (64 bytes), followed by its commitments K (dlog) or K0‖K1 (dlogeq) as 65-byte
 * uncompressed points, when the sender includes them (see proofs.ts). A peer that sent its
 * proofs without them gets ours without them too: it reads only the 64-byte form.
 */
export const encProof = (p: Proof, withCommitments: boolean): Hex =>
  encBytes(concatBytes(Fn.toBytes(p.e), Fn.toBytes(p.s), ...(withCommitments ? p.K!.map((K) => K.toBytes(false)) : [])));

export function decProof(v: unknown, field: string, commitments: 1 | 2, d: Dec): Proof {
  const withK = typeof v === 'string' && v.length !== 128;
  decBytes(v, field, withK ? 64 + 65 * commitments : 64, d);
  const hex = v as string;
  const proof: Proof = { e: decScalar(hex.slice(0, 64), `${field}.e`, d), s: decScalar(hex.slice(64, 128), `${field}.s`, d) };
  if (withK) proof.K = Array.from({ length: commitments }, (_, i) => decUncompressedPoint(hex.slice(128 + 130 * i, 258 + 130 * i), `${field}.K${i}`, d));
  return proof;
}

/** Whether the peer sent its proofs with their commitments (and so reads ours with them). */
export const sendsCommitments = (proofs: readonly Proof[]): boolean => proofs.length > 0 && proofs.every((p) => p.K !== undefined);

export const encPolys = (ps: Pt[][]): Hex[][] => ps.map((p) => p.map(encPoint));

/** Exactly `count` polynomials of exactly THRESHOLD coefficients: the degree check. */
export function decPolys(v: unknown, field: string, count: number, d: Dec, identityAtZero = false): Pt[][] {
  return decArray(v, field, count, d, (x, f) => decArray(x, f, THRESHOLD, d, (y, g) => decPoint(y, g, d, identityAtZero && g.endsWith('[0]'))));
}

export interface Opening {
  confirmation: Uint8Array;
  E: Pt[][];
  F: Pt[][];
  L: Pt[][];
  randomizer: Uint8Array;
  proofsE: Proof[];
  proofsF: Proof[];
  sharesE: bigint[];
  sharesF: bigint[];
}

const OPENING_FIELDS = ['session_id', 'confirmation', 'big_e', 'big_f', 'big_l', 'randomizer', 'proofs_e', 'proofs_f', 'shares_e', 'shares_f'];

export function encOpening(o: Opening, sessionId: Hex, withCommitments: boolean): OpeningFields {
  return {
    session_id: sessionId,
    confirmation: encBytes(o.confirmation),
    big_e: encPolys(o.E),
    big_f: encPolys(o.F),
    big_l: encPolys(o.L),
    randomizer: encBytes(o.randomizer),
    proofs_e: o.proofsE.map((p) => encProof(p, withCommitments)),
    proofs_f: o.proofsF.map((p) => encProof(p, withCommitments)),
    shares_e: encScalarBlob(o.sharesE),
    shares_f: encScalarBlob(o.sharesF),
  };
}

function decOpening(m: Record<string, unknown>, n: number, d: Dec): Opening {
  return {
    confirmation: decBytes(m.confirmation, 'confirmation', 32, d),
    E: decPolys(m.big_e, 'big_e', n, d),
    F: decPolys(m.big_f, 'big_f', n, d),
    // L(0) must be the identity; it is decoded permissively here so the protocol check
    // "L_j(0) = 0" (not the decoder) reports it.
    L: decPolys(m.big_l, 'big_l', n, d, true),
    randomizer: decBytes(m.randomizer, 'randomizer', 32, d),
    proofsE: decArray(m.proofs_e, 'proofs_e', n, d, (x, f) => decProof(x, f, 1, d)),
    proofsF: decArray(m.proofs_f, 'proofs_f', n, d, (x, f) => decProof(x, f, 1, d)),
    sharesE: decScalarBlob(m.shares_e, 'shares_e', n, d),
    sharesF: decScalarBlob(m.shares_f, 'shares_f', n, d),
  };
}

export interface Round4 {
  C: Pt[];
  proofsC: Proof[];
  CHat: Pt[];
  proofsCHat: Proof[];
  sharesC: bigint[];
}

const ROUND4_FIELDS = ['big_c', 'proofs_c', 'big_c_hat', 'proofs_c_hat', 'shares_c'];

export function encRound4(r: Round4, withCommitments: boolean): Round4Fields {
  return {
    big_c: r.C.map(encPoint),
    proofs_c: r.proofsC.map((p) => encProof(p, withCommitments)),
    big_c_hat: r.CHat.map(encPoint),
    proofs_c_hat: r.proofsCHat.map((p) => encProof(p, withCommitments)),
    shares_c: encScalarBlob(r.sharesC),
  };
}

function decRound4(m: Record<string, unknown>, n: number, d: Dec): Round4 {
  return {
    C: decArray(m.big_c, 'big_c', n, d, (x, f) => decPoint(x, f, d)),
    proofsC: decArray(m.proofs_c, 'proofs_c', n, d, (x, f) => decProof(x, f, 2, d)),
    CHat: decArray(m.big_c_hat, 'big_c_hat', n, d, (x, f) => decPoint(x, f, d)),
    proofsCHat: decArray(m.proofs_c_hat, 'proofs_c_hat', n, d, (x, f) => decProof(x, f, 1, d)),
    sharesC: decScalarBlob(m.shares_c, 'shares_c', n, d),
  };
}

// ---- message decoders -----------------------------------------------------------------------

export function decodeTriplesMsg1(v: unknown, maxCount: number, d: Dec) {
  const m = decMessage(v, 'triples/1', ['session_id', 'count', 'commitment', 'base_ot_y'], d);
  return {
    sessionId: decBytes(m.session_id, 'session_id', 32, d),
    count: decInt(m.count, 'count', 1, maxCount, d),
    commitment: decBytes(m.commitment, 'commitment', 32, d),
    Y: decPoint(m.base_ot_y, 'base_ot_y', d),
  };
}

export function decodeTriplesMsg1Reply(v: unknown, d: Dec) {
  const m = decMessage(v, 'triples/1-reply', ['session_id', 'commitment', 'base_ot_x'], d);
  return {
    sessionId: m.session_id,
    commitment: decBytes(m.commitment, 'commitment', 32, d),
    X: decArray(m.base_ot_x, 'base_ot_x', BASE_OTS, d, (x, f) => decPoint(x, f, d)),
  };
}

export function decodeTriplesMsg2(v: unknown, n: number, d: Dec) {
  const m = decMessage(v, 'triples/2', [...OPENING_FIELDS, 'ot_u', 'kos_x', 'kos_t', 'mta_chi1', 'mta_seeds'], d);
  const seeds = decBytes(m.mta_seeds, 'mta_seeds', 2 * n * 32, d);
  return {
    sessionId: m.session_id,
    opening: decOpening(m, n, d),
    ot: {
      u: decBytes(m.ot_u, 'ot_u', (BASE_OTS * mulRows(n)) / 8, d),
      kosX: decBytes(m.kos_x, 'kos_x', 32, d),
      kosT: decBytes(m.kos_t, 'kos_t', 32 * BASE_OTS, d),
    },
    chi1: decScalarBlob(m.mta_chi1, 'mta_chi1', 2 * n, d),
    seeds: Array.from({ length: 2 * n }, (_, i) => seeds.subarray(32 * i, 32 * i + 32)),
  };
}

export function decodeTriplesMsg2Reply(v: unknown, n: number, d: Dec) {
  const m = decMessage(v, 'triples/2-reply', [...OPENING_FIELDS, 'mta_c', ...ROUND4_FIELDS], d);
  return {
    sessionId: m.session_id,
    opening: decOpening(m, n, d),
    c: decScalarBlob(m.mta_c, 'mta_c', 2 * n * 2 * MTA_OTS, d),
    round4: decRound4(m, n, d),
  };
}

export function decodeTriplesMsg3(v: unknown, n: number, d: Dec) {
  const m = decMessage(v, 'triples/3', ['session_id', ...ROUND4_FIELDS], d);
  return { sessionId: m.session_id, round4: decRound4(m, n, d) };
}

export function decodeTriplesMsg3Reply(v: unknown, d: Dec) {
  const m = decMessage(v, 'triples/3-reply', ['session_id', 'digest'], d);
  return { sessionId: m.session_id, digest: decBytes(m.digest, 'digest', 32, d) };
}
