import { assertBytes, assertObject } from '../assert-input.js';
import { CryptoError } from '../errors.js';
import type { KeyPackage, ParticipantId, PublicKeyPackage, SigningCommitments, SigningNonces } from '../frost/types.js';
import { frostEd25519 } from './suite.js';

/*
 * The two parties of the spec's Ed25519 flow, by wire name: commitment0 / signature_share0 are
 * the server's (P1, identifier 2), commitment1 / the client share are the client's (P0,
 * identifier 1). The functions below only rename; the protocol is noble's RFC 9591 FROST.
 */

/** Arguments of a round-2 call; both parties pass the same two commitments. */
export interface Ed25519Round2Args {
  /** Message to sign (for Solana: the serialized transaction message). */
  msg: Uint8Array;
  /** This party's key package (keygen_1 on the client, keygen_2 on the server). */
  keyPackage: KeyPackage;
  /** This party's round-1 nonces; zeroed in place on success. */
  nonces: SigningNonces;
  /** Server commitment. */
  commitment0: SigningCommitments;
  /** Client commitment. */
  commitment1: SigningCommitments;
}

/** Arguments of client-side aggregation. */
export interface Ed25519AggregateArgs {
  msg: Uint8Array;
  publicKeyPackage: PublicKeyPackage;
  commitment0: SigningCommitments;
  commitment1: SigningCommitments;
  /** Server share (wire name signature_share0). */
  signatureShare0: Uint8Array;
  /** Client share. */
  signatureShare1: Uint8Array;
}

function assertRole(keyPackage: KeyPackage, id: ParticipantId, role: string): void {
  assertObject(keyPackage, 'keyPackage');
  if (keyPackage.identifier !== id) {
    throw new CryptoError('INVALID_INPUT', `${role} must use the key package of identifier ${id}, got ${String(keyPackage.identifier)}`);
  }
}

/**
 * Client round 1: fresh nonces (keep them in memory until round 2) and commitment1 (send it
 * with round 2). The client may compute this before or while posting round 1.
 */
export function signRound1ClientEd25519(keygen1: KeyPackage): { nonces: SigningNonces; commitment1: SigningCommitments } {
  assertRole(keygen1, 1, 'client round 1');
  const { nonces, commitments } = frostEd25519.round1(keygen1);
  return { nonces, commitment1: commitments };
}

/**
 * Server round 1: fresh nonces (persist them, encrypted, keyed by session_id; they must be used
 * at most once) and commitment0 (returned to the client).
 */
export function signRound1ServerEd25519(keygen2: KeyPackage): { nonces: SigningNonces; commitment0: SigningCommitments } {
  assertRole(keygen2, 2, 'server round 1');
  const { nonces, commitments } = frostEd25519.round1(keygen2);
  return { nonces, commitment0: commitments };
}

/** commitment0 must be the server's (identifier 2) and commitment1 the client's (identifier 1). */
function assertLabels(args: { commitment0: SigningCommitments; commitment1: SigningCommitments }): void {
  for (const [field, id] of [['commitment0', 2], ['commitment1', 1]] as const) {
    const c: unknown = args[field];
    assertObject(c, field);
    if (c.identifier !== id) {
      throw new CryptoError('INVALID_COMMITMENT', `${field} must carry identifier ${id}, got ${String(c.identifier)}`, [id]);
    }
  }
}

function round2(args: Ed25519Round2Args, id: ParticipantId, role: string): Uint8Array {
  assertObject(args, 'args');
  assertRole(args.keyPackage, id, role);
  assertLabels(args);
  return frostEd25519.round2({
    msg: args.msg,
    keyPackage: args.keyPackage,
    nonces: args.nonces,
    commitments: [args.commitment1, args.commitment0],
  });
}

/** Client round 2: the client's 32-byte signature share. */
export function signRound2ClientEd25519(args: Ed25519Round2Args): Uint8Array {
  return round2(args, 1, 'client round 2');
}

/** Server round 2: signature_share0, the server's 32-byte signature share. */
export function signRound2ServerEd25519(args: Ed25519Round2Args): Uint8Array {
  return round2(args, 2, 'server round 2');
}

/**
 * Client aggregation: the 64-byte RFC 8032 signature R || z. The result is verified against the
 * group key before it is returned; if it does not verify, each share is checked and the bad one
 * is named: CryptoError('INVALID_SIGNATURE_SHARE', ..., [identifier]).
 */
export function aggregateEd25519(args: Ed25519AggregateArgs): Uint8Array {
  assertObject(args, 'args');
  assertLabels(args);
  return frostEd25519.aggregate({
    msg: args.msg,
    publicKeyPackage: args.publicKeyPackage,
    commitments: [args.commitment1, args.commitment0],
    signatureShares: { 1: args.signatureShare1, 2: args.signatureShare0 },
  });
}

/**
 * Verifies a 64-byte Ed25519 signature under a 32-byte public key (cofactored RFC 8032 check).
 * Returns false for a wrong signature; throws INVALID_INPUT / INVALID_POINT for malformed
 * arguments or an unusable public key.
 */
export function verifyEd25519(signature: Uint8Array, msg: Uint8Array, publicKey: Uint8Array): boolean {
  assertBytes(signature, 'signature', 64);
  return frostEd25519.verify(signature, msg, publicKey);
}

/** Spec name of {@link signRound1ClientEd25519}. */
export const cli_sign_round1_ed25519 = signRound1ClientEd25519;
/** Server counterpart of cli_sign_round1_ed25519; see {@link signRound1ServerEd25519}. */
export const srv_sign_round1_ed25519 = signRound1ServerEd25519;
/** Spec name of {@link signRound2ClientEd25519}. */
export const cli_sign_round2_ed25519 = signRound2ClientEd25519;
/** Server counterpart of cli_sign_round2_ed25519; see {@link signRound2ServerEd25519}. */
export const srv_sign_round2_ed25519 = signRound2ServerEd25519;
/** Spec name of {@link aggregateEd25519}. */
export const cli_aggregate_ed25519 = aggregateEd25519;
/** Spec name of {@link verifyEd25519}. */
export const cli_verify_ed25519 = verifyEd25519;
