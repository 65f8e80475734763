import { CryptoError } from '../../errors.js';
import { fromHex } from '../../wire/hex.js';
import { strictObject } from '../../wire/strict.js';
import type { Pt } from '../common/group.js';
import { decPoint, decScalar, encBytes, encPoint, encScalar } from '../common/wire.js';

/*
 * One party's presignature: R = (1/k)·G (cait-sith's inverted nonce), its threshold share k_i
 * and σ_i (a share of σ = k·x), bound to the public key. JSON-ready for a database row.
 * Single use: signing marks it consumed and drops the secret shares; reusing a presignature
 * for two messages reveals the key.
 */

export interface Presignature {
  v: 1;
  kind: 'ecdsa-presignature';
  identifier: 1 | 2;
  session_id: string;
  index: number;
  public_key: string;
  big_r: string;
  share_k: string;
  share_sigma: string;
  consumed: boolean;
}

export interface PresignatureValues {
  R: Pt;
  k: bigint;
  sigma: bigint;
  X: Pt;
  publicKey: Uint8Array;
}

export function makePresignature(identifier: 1 | 2, sessionId: string, index: number, publicKey: Uint8Array, v: { R: Pt; k: bigint; sigma: bigint }): Presignature {
  return {
    v: 1,
    kind: 'ecdsa-presignature',
    identifier,
    session_id: sessionId,
    index,
    public_key: encBytes(publicKey),
    big_r: encPoint(v.R),
    share_k: encScalar(v.k),
    share_sigma: encScalar(v.sigma),
    consumed: false,
  };
}

const KEYS = ['v', 'kind', 'identifier', 'session_id', 'index', 'public_key', 'big_r', 'share_k', 'share_sigma', 'consumed'];

/** Validates a presignature; a consumed one is refused with STATE_CONSUMED. */
export function readPresignature(p: unknown, identifier: number): PresignatureValues {
  const o = strictObject(p, 'presignature', KEYS);
  if (o.v !== 1 || o.kind !== 'ecdsa-presignature') throw new CryptoError('INVALID_INPUT', 'not a version-1 ecdsa-presignature');
  if (o.consumed !== false) throw new CryptoError('STATE_CONSUMED', 'presignature was already used: a presignature signs exactly one message');
  if (o.identifier !== identifier) throw new CryptoError('INVALID_INPUT', `presignature belongs to participant ${String(o.identifier)}, not ${identifier}`);
  const d = { culprits: [] };
  const publicKey = fromHex(o.public_key, 'presignature.public_key', 33);
  return {
    R: decPoint(o.big_r, 'presignature.big_r', d),
    k: decScalar(o.share_k, 'presignature.share_k', d),
    sigma: decScalar(o.share_sigma, 'presignature.share_sigma', d),
    X: decPoint(o.public_key, 'presignature.public_key', d),
    publicKey,
  };
}

export function consumePresignature(p: Presignature): void {
  p.consumed = true;
  p.share_k = '';
  p.share_sigma = '';
}
