import { sha256 } from '@noble/hashes/sha2.js';
import { CryptoError } from '../errors.js';
import type { SigningCommitments, SigningNonces } from '../frost/types.js';
import { fromHex, toHex } from '../wire/hex.js';
import { strictObject } from '../wire/strict.js';

/*
 * What the server (P1, identifier 2) keeps between FROST round 1 and round 2 of one Ed25519
 * signature, as the JSON a session row holds. Only the nonces are secret: they leave this module
 * only through the caller's `seal` (tss-api: its ShareCipher, bound to the session id), packed as
 * hiding ‖ binding. Whoever reads the state back gets exactly what round 2 needs, or a
 * CryptoError: a state that is not what sealEd25519SessionState wrote is never signed with.
 */

/** The server's round-1 values, as round 2 takes them. */
export interface Ed25519ServerRound1 {
  /** The message to sign. */
  msg: Uint8Array;
  /** The server's nonces. Secret; single use. */
  nonces: SigningNonces;
  /** The server's commitment to them (identifier 2), already sent to the client. */
  commitment0: SigningCommitments;
}

/** The JSON form of Ed25519ServerRound1. */
export interface Ed25519SessionState {
  v: 1;
  /** The message, hex. */
  msg: string;
  /** SHA-256 of the message, hex: what the audit log records (no need to open anything). */
  msg_hash: string;
  /** The server commitment, hex points. */
  commitment0: { hiding: string; binding: string };
  /** The sealed nonces, as `seal` returned them; absent once round 2 has claimed them. */
  nonces?: string;
}

const NONCE_BYTES = 32;
const KEYS = ['v', 'msg', 'msg_hash', 'commitment0', 'nonces'];

/**
 * Round 1 -> the session's JSON. The nonces are packed, sealed, and then zeroed in place (the
 * packed copy too): after this the sealed string is their only form.
 */
export function sealEd25519SessionState(round1: Ed25519ServerRound1, seal: (packedNonces: Uint8Array) => string): Ed25519SessionState {
  const { msg, nonces, commitment0 } = round1;
  const packed = new Uint8Array(2 * NONCE_BYTES);
  try {
    const state = completedEd25519SessionState(msg, commitment0);
    packed.set(nonces.hiding, 0);
    packed.set(nonces.binding, NONCE_BYTES);
    return { ...state, nonces: seal(packed) };
  } finally {
    packed.fill(0);
    nonces.hiding.fill(0);
    nonces.binding.fill(0);
  }
}

/**
 * The state of a session whose nonces are spent, as round 2's claim leaves it: what the audit
 * log and the session list read. A signature made in one call is recorded in this form directly
 * (its nonces never left the request).
 */
export function completedEd25519SessionState(msg: Uint8Array, commitment0: SigningCommitments): Ed25519SessionState {
  if (commitment0.identifier !== 2) throw new CryptoError('INVALID_INPUT', 'commitment0 must be the server commitment (identifier 2)');
  return {
    v: 1,
    msg: toHex(msg),
    msg_hash: toHex(sha256(msg)),
    commitment0: { hiding: toHex(commitment0.hiding), binding: toHex(commitment0.binding) },
  };
}

/**
 * The session's JSON -> round 2's inputs: every field checked (exact keys, version, hex sizes, the
 * hash of the message), the nonces opened with `open` (which refuses what it did not seal). Throws
 * CryptoError INVALID_ENCODING / UNSUPPORTED_VERSION / CHECK_FAILED on a malformed state.
 */
export function openEd25519SessionState(state: unknown, open: (sealed: string) => Uint8Array): Ed25519ServerRound1 {
  const o = strictObject(state, 'ed25519 session state', KEYS);
  if (o.v !== 1) throw new CryptoError('UNSUPPORTED_VERSION', `ed25519 session state version must be 1, got ${JSON.stringify(o.v)}`);
  const msg = fromHex(o.msg, 'state.msg');
  if (toHex(sha256(msg)) !== toHex(fromHex(o.msg_hash, 'state.msg_hash', 32))) {
    throw new CryptoError('CHECK_FAILED', 'state.msg_hash is not the SHA-256 of state.msg');
  }
  const c = strictObject(o.commitment0, 'state.commitment0', ['hiding', 'binding']);
  const commitment0: SigningCommitments = {
    identifier: 2,
    hiding: fromHex(c.hiding, 'state.commitment0.hiding', 32),
    binding: fromHex(c.binding, 'state.commitment0.binding', 32),
  };
  if (typeof o.nonces !== 'string') throw new CryptoError('INVALID_ENCODING', 'state.nonces must be the sealed string');
  const packed = open(o.nonces);
  try {
    if (packed.length !== 2 * NONCE_BYTES) throw new CryptoError('INVALID_ENCODING', `state.nonces must open to ${2 * NONCE_BYTES} bytes, got ${packed.length}`);
    return { msg, commitment0, nonces: { hiding: packed.slice(0, NONCE_BYTES), binding: packed.slice(NONCE_BYTES) } };
  } finally {
    packed.fill(0);
  }
}
