import { CryptoError } from '../errors.js';
import type { KeyPackage, ParticipantId, PublicKeyPackage, SigningCommitments, SigningNonces } from '../frost/types.js';
import { fromHex, toHex } from './hex.js';
import { checkHeader, readEnumInt, strictObject } from './strict.js';

/** Wire format version of every FROST object. Bump on any incompatible change. */
export const FROST_WIRE_VERSION = 1;

/** What the codec needs from a suite: its id and strict point / scalar decoders. */
export interface WireSuite {
  name: string;
  parsePoint(bytes: Uint8Array, name: string, culprit?: ParticipantId, witness?: Uint8Array): unknown;
  parseScalar(bytes: Uint8Array, name: string, culprit?: ParticipantId): bigint;
}

/** JSON shapes (all byte fields lowercase hex). */
export interface KeyPackageJson {
  v: 1;
  ciphersuite: string;
  identifier: ParticipantId;
  signing_share: string;
  verifying_share: string;
  verifying_key: string;
  min_signers: 2;
}
export interface PublicKeyPackageJson {
  v: 1;
  ciphersuite: string;
  verifying_shares: { '1': string; '2': string };
  verifying_key: string;
}
export interface SigningCommitmentsJson {
  v: 1;
  ciphersuite: string;
  identifier: ParticipantId;
  hiding: string;
  binding: string;
  /** Subgroup witness of hiding and binding (types.ts SubgroupWitness); optional. */
  witness?: { hiding: string; binding: string };
}
export interface SigningNoncesJson {
  v: 1;
  ciphersuite: string;
  hiding: string;
  binding: string;
}
export interface SignatureShareJson {
  v: 1;
  ciphersuite: string;
  identifier: ParticipantId;
  share: string;
}
export interface SignatureJson {
  v: 1;
  ciphersuite: string;
  signature: string;
}

const IDS = [1, 2] as const;

/**
 * Encoders and strict decoders for the FROST 2-of-2 objects that cross HTTP or are persisted.
 * Decoders take parsed JSON (`unknown`) and reject: unknown or missing fields
 * (INVALID_ENCODING), another `v` (UNSUPPORTED_VERSION), another ciphersuite, non-lowercase hex
 * or wrong lengths (INVALID_ENCODING), scalars >= the group order (INVALID_SCALAR), and
 * non-canonical, identity or small-order points (INVALID_POINT).
 */
export function createFrostWireCodec(suite: WireSuite, scalarBytes: number, pointBytes: number) {
  const header = { v: FROST_WIRE_VERSION, ciphersuite: suite.name } as const;
  const open = (value: unknown, name: string, fields: readonly string[], optional: readonly string[] = []) => {
    const obj = strictObject(value, name, ['v', 'ciphersuite', ...fields], optional);
    checkHeader(obj, name, FROST_WIRE_VERSION, suite.name);
    return obj;
  };
  const point = (obj: Record<string, unknown>, field: string, culprit?: ParticipantId, witness?: Uint8Array) => {
    const bytes = fromHex(obj[field], field, pointBytes);
    suite.parsePoint(bytes, field, culprit, witness);
    return bytes;
  };
  const scalar = (obj: Record<string, unknown>, field: string, culprit?: ParticipantId) => {
    const bytes = fromHex(obj[field], field, scalarBytes);
    suite.parseScalar(bytes, field, culprit);
    return bytes;
  };
  const nonZeroScalar = (obj: Record<string, unknown>, field: string) => {
    const bytes = scalar(obj, field);
    if (bytes.every((b) => b === 0)) throw new CryptoError('INVALID_SCALAR', `${field} must not be zero`);
    return bytes;
  };

  return {
    encodeKeyPackage: (kp: KeyPackage): KeyPackageJson => ({
      ...header,
      identifier: kp.identifier,
      signing_share: toHex(kp.signingShare),
      verifying_share: toHex(kp.verifyingShare),
      verifying_key: toHex(kp.verifyingKey),
      min_signers: 2,
    }),
    decodeKeyPackage(value: unknown): KeyPackage {
      const o = open(value, 'key package', ['identifier', 'signing_share', 'verifying_share', 'verifying_key', 'min_signers']);
      readEnumInt(o, 'min_signers', [2]);
      return {
        identifier: readEnumInt(o, 'identifier', IDS),
        signingShare: nonZeroScalar(o, 'signing_share'),
        verifyingShare: point(o, 'verifying_share'),
        verifyingKey: point(o, 'verifying_key'),
        minSigners: 2,
      };
    },
    encodePublicKeyPackage: (pkp: PublicKeyPackage): PublicKeyPackageJson => ({
      ...header,
      verifying_shares: { '1': toHex(pkp.verifyingShares[1]), '2': toHex(pkp.verifyingShares[2]) },
      verifying_key: toHex(pkp.verifyingKey),
    }),
    decodePublicKeyPackage(value: unknown): PublicKeyPackage {
      const o = open(value, 'public key package', ['verifying_shares', 'verifying_key']);
      const shares = strictObject(o.verifying_shares, 'verifying_shares', ['1', '2']);
      return {
        verifyingShares: { 1: point(shares, '1', 1), 2: point(shares, '2', 2) },
        verifyingKey: point(o, 'verifying_key'),
      };
    },
    /** With the witness when `c` has one and `withWitness` is not false (a peer that never sent one may not read it). */
    encodeSigningCommitments: (c: SigningCommitments, withWitness = true): SigningCommitmentsJson => ({
      ...header,
      identifier: c.identifier,
      hiding: toHex(c.hiding),
      binding: toHex(c.binding),
      ...(withWitness && c.witness && { witness: { hiding: toHex(c.witness.hiding), binding: toHex(c.witness.binding) } }),
    }),
    /**
     * A `witness` is checked, and then stands for the subgroup check of hiding and binding
     * (INVALID_POINT if it does not prove them); without one both are checked in full.
     */
    decodeSigningCommitments(value: unknown): SigningCommitments {
      const o = open(value, 'signing commitments', ['identifier', 'hiding', 'binding'], ['witness']);
      const identifier = readEnumInt(o, 'identifier', IDS);
      const w = o.witness === undefined ? undefined : strictObject(o.witness, 'witness', ['hiding', 'binding']);
      const witness = w && { hiding: fromHex(w.hiding, 'witness.hiding', pointBytes), binding: fromHex(w.binding, 'witness.binding', pointBytes) };
      return {
        identifier,
        hiding: point(o, 'hiding', identifier, witness?.hiding),
        binding: point(o, 'binding', identifier, witness?.binding),
        ...(witness && { witness }),
      };
    },
    /** Secret round-1 state; only for a party persisting its own nonces (encrypted). */
    encodeSigningNonces: (n: SigningNonces): SigningNoncesJson => ({ ...header, hiding: toHex(n.hiding), binding: toHex(n.binding) }),
    decodeSigningNonces(value: unknown): SigningNonces {
      const o = open(value, 'signing nonces', ['hiding', 'binding']);
      return { hiding: nonZeroScalar(o, 'hiding'), binding: nonZeroScalar(o, 'binding') };
    },
    encodeSignatureShare: (identifier: ParticipantId, share: Uint8Array): SignatureShareJson => ({
      ...header,
      identifier,
      share: toHex(share),
    }),
    decodeSignatureShare(value: unknown): { identifier: ParticipantId; share: Uint8Array } {
      const o = open(value, 'signature share', ['identifier', 'share']);
      const identifier = readEnumInt(o, 'identifier', IDS);
      return { identifier, share: scalar(o, 'share', identifier) };
    },
    encodeSignature: (signature: Uint8Array): SignatureJson => ({ ...header, signature: toHex(signature) }),
    decodeSignature(value: unknown): Uint8Array {
      const o = open(value, 'signature', ['signature']);
      const sig = fromHex(o.signature, 'signature', pointBytes + scalarBytes);
      suite.parsePoint(sig.subarray(0, pointBytes), 'signature.R');
      suite.parseScalar(sig.subarray(pointBytes), 'signature.z');
      return sig;
    },
  };
}
