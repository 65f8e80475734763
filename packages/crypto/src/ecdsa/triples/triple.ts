import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { CryptoError } from '../../errors.js';
import { fromHex } from '../../wire/hex.js';
import { strictObject } from '../../wire/strict.js';
import type { Pt } from '../common/group.js';
import { decPoint, decScalar, encPoint, encScalar } from '../common/wire.js';

/*
 * One party's share of a Beaver triple (a, b, c = a·b), threshold-shared at x = 1 (client) and
 * x = 2 (server), with the public A = a·G, B = b·G, C = c·G. JSON-ready so each triple can sit
 * in its own database row. Single use: presign marks it consumed and drops the secrets.
 */

export interface Triple {
  v: 1;
  kind: 'ecdsa-triple';
  identifier: 1 | 2;
  /** Triple-generation session that produced it, and its index in that batch. */
  session_id: string;
  index: number;
  share_a: string;
  share_b: string;
  share_c: string;
  big_a: string;
  big_b: string;
  big_c: string;
  consumed: boolean;
}

export interface TripleValues {
  a: bigint;
  b: bigint;
  c: bigint;
  A: Pt;
  B: Pt;
  C: Pt;
}

export function makeTriple(identifier: 1 | 2, sessionId: string, index: number, t: TripleValues): Triple {
  return {
    v: 1,
    kind: 'ecdsa-triple',
    identifier,
    session_id: sessionId,
    index,
    share_a: encScalar(t.a),
    share_b: encScalar(t.b),
    share_c: encScalar(t.c),
    big_a: encPoint(t.A),
    big_b: encPoint(t.B),
    big_c: encPoint(t.C),
    consumed: false,
  };
}

const KEYS = ['v', 'kind', 'identifier', 'session_id', 'index', 'share_a', 'share_b', 'share_c', 'big_a', 'big_b', 'big_c', 'consumed'];

/** Validates a triple object and refuses a consumed one (STATE_CONSUMED). */
export function readTriple(t: unknown, name: string, identifier: number): TripleValues {
  const o = strictObject(t, name, KEYS);
  if (o.v !== 1 || o.kind !== 'ecdsa-triple') throw new CryptoError('INVALID_INPUT', `${name} is not a version-1 ecdsa-triple`);
  if (o.consumed !== false) throw new CryptoError('STATE_CONSUMED', `${name} was already used: a triple is single-use`);
  if (o.identifier !== identifier) throw new CryptoError('INVALID_INPUT', `${name} belongs to participant ${String(o.identifier)}, not ${identifier}`);
  fromHex(o.session_id, `${name}.session_id`, 32);
  const d = { culprits: [] };
  return {
    a: decScalar(o.share_a, `${name}.share_a`, d),
    b: decScalar(o.share_b, `${name}.share_b`, d),
    c: decScalar(o.share_c, `${name}.share_c`, d),
    A: decPoint(o.big_a, `${name}.big_a`, d),
    B: decPoint(o.big_b, `${name}.big_b`, d),
    C: decPoint(o.big_c, `${name}.big_c`, d),
  };
}

/** Marks consumed and drops the secret shares from the object. */
export function consumeTriple(t: Triple): void {
  t.consumed = true;
  t.share_a = '';
  t.share_b = '';
  t.share_c = '';
}

/** Public identity of a triple: what both parties must agree on before using it. */
export function triplePublicId(t: Pick<Triple, 'session_id' | 'index' | 'big_a' | 'big_b' | 'big_c'>): Uint8Array {
  return sha256(
    concatBytes(utf8ToBytes('svc/ecdsa triple id v1'), fromHex(t.session_id, 'session_id', 32), utf8ToBytes(`:${t.index}:`), fromHex(t.big_a, 'big_a'), fromHex(t.big_b, 'big_b'), fromHex(t.big_c, 'big_c')),
  );
}
