/**
 * The seam between the chain methods and the threshold protocols. The chain layer only needs
 * "sign these bytes" per curve; the threshold flows (FROST Ed25519 rounds against tss-api,
 * two-party ECDSA with a presignature pool) implement this interface, and so can anything else
 * that holds the key (tests use plain local keys).
 */
export interface Ed25519Signer {
  /** The 32-byte Ed25519 public key (RFC 8032 encoding). */
  readonly publicKey: Uint8Array;
  /** A 64-byte Ed25519 signature (R || S) over the message itself (Ed25519 hashes internally). */
  sign(message: Uint8Array): Promise<Uint8Array>;
}

export interface Secp256k1RawSignature {
  /** 32 bytes, big-endian. */
  r: Uint8Array;
  /** 32 bytes, big-endian; may be high-s: the chain layer normalises. */
  s: Uint8Array;
  /** Parity of R.y, as returned by the signer (verified and corrected by the chain layer). */
  recovery: 0 | 1;
}

export interface Secp256k1Signer {
  /** The 33-byte compressed SEC1 public key. */
  readonly publicKey: Uint8Array;
  /** An ECDSA signature over a 32-byte digest, which the signer does not hash again. */
  signHash(hash32: Uint8Array): Promise<Secp256k1RawSignature>;
}

export interface Signers {
  ed25519: Ed25519Signer;
  secp256k1: Secp256k1Signer;
}

/** What holds the threshold signers of a wallet: a signed-in `SvcWallet`, or anything else that can give them. */
export interface SignersSource {
  signers(): Promise<Signers>;
}
