/**
 * In-memory FROST 2-of-2 types, named after RFC 9591 / ZF FROST wire types. Byte fields hold the
 * ciphersuite's canonical encodings (for Ed25519: 32-byte compressed points, 32-byte
 * little-endian scalars). Identifier 1 is the client (P0), identifier 2 the server (P1).
 */

/** Participant identifier: 1 = client P0, 2 = server P1. */
export type ParticipantId = 1 | 2;

/** One participant's long-lived signing key (keygen_1 or keygen_2). Secret. */
export interface KeyPackage {
  identifier: ParticipantId;
  /** Secret scalar share f(identifier). */
  signingShare: Uint8Array;
  /** signingShare·G, published in the public key package. */
  verifyingShare: Uint8Array;
  /** Group public key. */
  verifyingKey: Uint8Array;
  minSigners: 2;
}

/** What everyone may know about the key: the group key and both verifying shares. */
export interface PublicKeyPackage {
  verifyingShares: Record<ParticipantId, Uint8Array>;
  verifyingKey: Uint8Array;
}

/** Round-1 secret nonces. Use once: round 2 zeroes them in place. */
export interface SigningNonces {
  hiding: Uint8Array;
  binding: Uint8Array;
}

/**
 * Points W with [h]W equal to each commitment (h the cofactor, 8 for Ed25519): proof that the
 * commitment is in the prime-order subgroup, checked with a few doublings instead of a scalar
 * multiplication by the group order. Not part of RFC 9591; the commitments are unchanged.
 */
export interface SubgroupWitness {
  hiding: Uint8Array;
  binding: Uint8Array;
}

/** Round-1 public commitments to the nonces. */
export interface SigningCommitments {
  identifier: ParticipantId;
  hiding: Uint8Array;
  binding: Uint8Array;
  /** Optional subgroup witness of hiding and binding (round 1 makes one; older peers send none). */
  witness?: SubgroupWitness;
}

/** Output of round 1: keep `nonces` private, send `commitments`. */
export interface Round1Output {
  nonces: SigningNonces;
  commitments: SigningCommitments;
}

/** Trusted-dealer output of a 2-of-2 key. */
export interface DealtKey {
  keyPackages: Record<ParticipantId, KeyPackage>;
  publicKeyPackage: PublicKeyPackage;
}
