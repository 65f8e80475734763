import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { CURVE_NAME, type Pt } from '../common/group.js';
import { Transcript, u32 } from '../common/transcript.js';
import { CryptoError } from '../../errors.js';
import type { ProtocolState } from '../common/state.js';
import { decBytes, pointBytes } from '../common/wire.js';

/*
 * Values both parties of triple generation derive the same way: the confirmation hash (which
 * is also the session id of the multiplication and OT extension), the Fiat-Shamir transcript,
 * the bytes a polynomial commitment covers, and the digest of the resulting public triples.
 */

export const CLIENT_ID = 1;
export const SERVER_ID = 2;
export const PARTICIPANTS = [CLIENT_ID, SERVER_ID] as const;
export const THRESHOLD = 2;
/** Default cap on triples per run: keeps the largest message (~100 KiB per triple) under 10 MB. */
export const DEFAULT_MAX_TRIPLES_PER_RUN = 64;

export function confirmationHash(sessionId: Uint8Array, count: number, com0: Uint8Array, com1: Uint8Array): Uint8Array {
  return sha256(concatBytes(utf8ToBytes('svc/ecdsa triples confirmation v1'), sessionId, u32(count), com0, com1));
}

export function tripleTranscript(sessionId: Uint8Array, count: number, confirmation: Uint8Array): Transcript {
  return Transcript.create('triple generation')
    .append('group', utf8ToBytes(CURVE_NAME))
    .append('participants', u32(CLIENT_ID), u32(SERVER_ID))
    .append('threshold', u32(THRESHOLD))
    .append('session_id', sessionId)
    .append('count', u32(count))
    .append('confirmation', confirmation);
}

/** What Com_i covers: the session, the committer and all its E, F, L coefficient commitments. */
export function polyCommitBytes(sessionId: Uint8Array, party: number, E: Pt[][], F: Pt[][], L: Pt[][]): Uint8Array {
  const parts: Uint8Array[] = [sessionId, u32(party)];
  for (let k = 0; k < E.length; k++) {
    for (const p of [...E[k]!, ...F[k]!, ...L[k]!]) parts.push(pointBytes(p));
  }
  return concatBytes(...parts);
}

export function triplesDigest(sessionId: Uint8Array, pubs: { A: Pt; B: Pt; C: Pt }[]): Uint8Array {
  const parts: Uint8Array[] = [utf8ToBytes('svc/ecdsa triples digest v1'), sessionId, u32(pubs.length)];
  for (const p of pubs) parts.push(p.A.toBytes(true), p.B.toBytes(true), p.C.toBytes(true));
  return sha256(concatBytes(...parts));
}

/** The data of a triple-generation state (absent only in a state that was tampered with). */
export function stateData(state: ProtocolState): Record<string, unknown> {
  if (!state.data) throw new CryptoError('INVALID_INPUT', 'triple-gen state has no data');
  return state.data;
}

/** What every step after the first reads from its own state: data, session id, batch size. */
export function laterStepState(state: ProtocolState): { d: Record<string, unknown>; sid: string; sessionId: Uint8Array; count: number } {
  const d = stateData(state);
  const sid = state.session_id;
  if (typeof sid !== 'string') throw new CryptoError('INVALID_INPUT', 'triple-gen state has no session');
  return { d, sid, sessionId: decBytes(sid, 'session_id', 32, { culprits: [] }), count: d.count as number };
}
