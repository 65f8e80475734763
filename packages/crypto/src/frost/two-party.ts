import type { FROST, FrostPublic, FrostSecret, RNG } from '@noble/curves/abstract/frost.js';
import { equalBytes } from '@noble/curves/utils.js';
import { assertBytes, assertInteger, assertObject } from '../assert-input.js';
import { CryptoError } from '../errors.js';
import type {
  DealtKey,
  KeyPackage,
  ParticipantId,
  PublicKeyPackage,
  Round1Output,
  SigningCommitments,
  SigningNonces,
  SubgroupWitness,
} from './types.js';

/** Minimal view of a noble point class: what the 2-of-2 layer needs for validation and checks. */
export interface SuitePoint<P> {
  BASE: { multiply(n: bigint): P };
  ZERO: { toBytes(): Uint8Array };
  fromBytes(bytes: Uint8Array): P;
}
interface PointOps<P> {
  add(other: P): P;
  multiply(n: bigint): P;
  equals(other: P): boolean;
  toBytes(): Uint8Array;
  is0(): boolean;
  isTorsionFree(): boolean;
  assertValidity(): void;
}

/** What a ciphersuite provides: noble's FROST instance plus its point class. */
export interface TwoPartySuite<P extends PointOps<P>> {
  /** RFC 9591 ciphersuite id, e.g. FROST-ED25519-SHA512-v1. */
  name: string;
  frost: FROST;
  Point: SuitePoint<P>;
  pointBytes: number;
  /**
   * Runs noble's commit so that the suite's point class (ed25519/checked-point.ts) records this
   * party's own round-1 commitments (nonce·G, in the subgroup by construction): neither round 2
   * nor aggregation repeats their subgroup check, and round 2 need not multiply them again.
   */
  commitRemembering?: <T extends { nonces: SigningNonces; commitments: { hiding: Uint8Array; binding: Uint8Array } }>(
    commit: () => T,
  ) => T & { witness?: SubgroupWitness };
  /**
   * Accepts a point encoding on the strength of its subgroup witness (types.ts SubgroupWitness),
   * marking it checked; false if the witness does not prove it.
   */
  acceptWitness?: (encoding: Uint8Array, witness: Uint8Array) => boolean;
  /** Runs round 2's signShare with the products commitRemembering kept for these nonces. */
  withOwnCommitments?: <T>(nonces: SigningNonces, sign: () => T) => T;
  /** Asks the point class to keep a window table for a cached long-lived point (the group key). */
  precomputeCached?: (encoding: Uint8Array) => void;
  /** The cache itself, exposed for tests and the benches (size, has). */
  checked?: { has(encoding: Uint8Array): boolean; readonly size: number };
  /** What the point class handed to noble (base multiplications, subgroup checks [L]P), for tests and the benches. */
  counts?: { readonly baseMultiplications: number; readonly subgroupChecks: number };
}

const IDS: readonly ParticipantId[] = [1, 2];

/**
 * 2-of-2 FROST on top of one of noble's RFC 9591 suites. The protocol lives in noble; this layer
 * fixes the participant set to {1, 2}, translates between our typed packages and noble's
 * hex-keyed objects, and turns noble's plain Errors into CryptoErrors that name a culprit.
 */
export function createTwoPartyFrost<P extends PointOps<P>>(suite: TwoPartySuite<P>) {
  const { frost, Point, pointBytes } = suite;
  const { Fn } = frost.utils;
  const idHex = (id: ParticipantId) => frost.Identifier.fromNumber(id);
  const identityBytes = Point.ZERO.toBytes();

  /**
   * Decodes a point and rejects non-canonical encodings, identity and small-order points. With a
   * `witness` (a point W with [cofactor]W = the point, types.ts SubgroupWitness) the subgroup
   * check is that product instead of [L]P; a witness that does not prove the point is refused.
   */
  function parsePoint(bytes: Uint8Array, name: string, culprit?: ParticipantId, witness?: Uint8Array): P {
    assertBytes(bytes, name, pointBytes);
    const culprits = culprit === undefined ? [] : [culprit];
    if (witness !== undefined && suite.acceptWitness) {
      assertBytes(witness, `${name} witness`, pointBytes);
      if (!suite.acceptWitness(bytes, witness)) {
        throw new CryptoError('INVALID_POINT', `${name} is not proven in the prime-order subgroup by its witness`, culprits);
      }
    }
    let p: P;
    try {
      p = Point.fromBytes(bytes);
      p.assertValidity();
    } catch {
      throw new CryptoError('INVALID_POINT', `${name} is not a valid curve point`, culprits);
    }
    // Re-encoding catches any alternative encoding the decoder tolerated.
    if (!equalBytes(p.toBytes(), bytes)) throw new CryptoError('INVALID_POINT', `${name} is not canonically encoded`, culprits);
    if (p.is0()) throw new CryptoError('INVALID_POINT', `${name} is the identity point`, culprits);
    if (!p.isTorsionFree()) throw new CryptoError('INVALID_POINT', `${name} is not in the prime-order subgroup`, culprits);
    return p;
  }

  /** Decodes a canonical scalar (< group order). */
  function parseScalar(bytes: Uint8Array, name: string, culprit?: ParticipantId): bigint {
    assertBytes(bytes, name, Fn.BYTES);
    try {
      return Fn.fromBytes(bytes);
    } catch {
      throw new CryptoError('INVALID_SCALAR', `${name} is not a canonical scalar (must be < group order)`, culprit === undefined ? [] : [culprit]);
    }
  }

  /*
   * Point checks cost a subgroup test (~one scalar multiplication) each and noble repeats them
   * inside every protocol call. So the signing path checks only shapes up front (full = false)
   * and, if noble rejects something, re-runs the checks in full to report which field and which
   * participant was at fault. Key-package checks and wire decoding always run in full.
   */
  function point(bytes: unknown, name: string, full: boolean, culprit?: ParticipantId): void {
    if (full) parsePoint(bytes as Uint8Array, name, culprit);
    else assertBytes(bytes, name, pointBytes);
  }

  function assertKeyPackage(kp: unknown, name: string, full: boolean): asserts kp is KeyPackage {
    assertObject(kp, name);
    assertInteger(kp.identifier, `${name}.identifier`, 1, 2);
    if (kp.minSigners !== 2) throw new CryptoError('INVALID_INPUT', `${name}.minSigners must be 2`);
    parseScalar(kp.signingShare as Uint8Array, `${name}.signingShare`);
    point(kp.verifyingShare, `${name}.verifyingShare`, full);
    point(kp.verifyingKey, `${name}.verifyingKey`, full);
  }

  function assertPublicKeyPackage(pkp: unknown, name: string, full: boolean): asserts pkp is PublicKeyPackage {
    assertObject(pkp, name);
    point(pkp.verifyingKey, `${name}.verifyingKey`, full);
    assertObject(pkp.verifyingShares, `${name}.verifyingShares`);
    for (const id of IDS) point(pkp.verifyingShares[id], `${name}.verifyingShares[${id}]`, full, id);
  }

  function assertCommitments(c: unknown, name: string, id: ParticipantId, full: boolean): asserts c is SigningCommitments {
    assertObject(c, name);
    if (c.identifier !== id) throw new CryptoError('INVALID_COMMITMENT', `${name}.identifier must be ${id}, got ${String(c.identifier)}`, [id]);
    point(c.hiding, `${name}.hiding`, full, id);
    point(c.binding, `${name}.binding`, full, id);
  }

  function assertNonces(n: unknown, name: string): asserts n is SigningNonces {
    assertObject(n, name);
    const hiding = parseScalar(n.hiding as Uint8Array, `${name}.hiding`);
    const binding = parseScalar(n.binding as Uint8Array, `${name}.binding`);
    // noble zeroes nonces after signing; an all-zero pair means this round-1 state was consumed.
    if (hiding === 0n || binding === 0n) throw new CryptoError('STATE_CONSUMED', `${name} were already used for a signature share`);
  }

  // noble types its byte fields as Uint8Array<ArrayBuffer>; ours accept any Uint8Array.
  const nb = (b: Uint8Array) => b as Uint8Array<ArrayBuffer>;
  const toNoblePublic = (pkp: PublicKeyPackage): FrostPublic => ({
    signers: { min: 2, max: 2 },
    commitments: [nb(pkp.verifyingKey)],
    verifyingShares: { [idHex(1)]: nb(pkp.verifyingShares[1]), [idHex(2)]: nb(pkp.verifyingShares[2]) },
  });
  const toNobleSecret = (kp: KeyPackage): FrostSecret => ({ identifier: idHex(kp.identifier), signingShare: nb(kp.signingShare) });
  const toNobleCommitments = (list: readonly SigningCommitments[]) =>
    list.map((c) => ({ identifier: idHex(c.identifier), hiding: c.hiding, binding: c.binding }));

  /** Orders the two commitments by identifier and checks both are present exactly once. */
  function commitmentList(commitments: readonly unknown[], full = false): SigningCommitments[] {
    if (!Array.isArray(commitments) || commitments.length !== 2) {
      throw new CryptoError('INVALID_INPUT', 'commitments must be an array of the two participants\u2019 commitments');
    }
    const byId = new Map<unknown, unknown>(commitments.map((c) => [(c as { identifier?: unknown } | null)?.identifier, c]));
    return IDS.map((id) => {
      const c = byId.get(id);
      assertCommitments(c, `commitments of participant ${id}`, id, full);
      return c;
    });
  }

  /**
   * Deals a 2-of-2 sharing of `secretScalar` (canonical scalar bytes) to identifiers 1 and 2.
   * `rng` is only for tests that need reproducible polynomials.
   */
  function deal(secretScalar: Uint8Array, rng?: RNG): DealtKey {
    const s = parseScalar(secretScalar, 'secretScalar');
    if (s === 0n) throw new CryptoError('INVALID_SCALAR', 'secretScalar must not be zero');
    const dealt = frost.trustedDealer({ min: 2, max: 2 }, [idHex(1), idHex(2)], secretScalar, rng);
    const verifyingKey = dealt.public.commitments[0];
    const pub = (id: ParticipantId) => dealt.public.verifyingShares[idHex(id)];
    const secret = (id: ParticipantId) => dealt.secretShares[idHex(id)]?.signingShare;
    const v1 = pub(1), v2 = pub(2), s1 = secret(1), s2 = secret(2);
    if (!verifyingKey || !v1 || !v2 || !s1 || !s2) throw new CryptoError('INVALID_INPUT', 'dealer returned an incomplete package');
    const keyPackage = (identifier: ParticipantId, signingShare: Uint8Array, verifyingShare: Uint8Array): KeyPackage => ({
      identifier,
      signingShare,
      verifyingShare,
      verifyingKey,
      minSigners: 2,
    });
    return {
      keyPackages: { 1: keyPackage(1, s1, v1), 2: keyPackage(2, s2, v2) },
      publicKeyPackage: { verifyingKey, verifyingShares: { 1: v1, 2: v2 } },
    };
  }

  /**
   * Checks that a key package belongs to a public key package: share·G equals its verifying
   * share, both carry the same group key, and the two verifying shares interpolate to the group
   * key (Y = 2·Y1 − Y2 for identifiers 1, 2). Throws KEY_MISMATCH otherwise.
   */
  function checkKeyPackage(keyPackage: KeyPackage, publicKeyPackage: PublicKeyPackage): void {
    assertKeyPackage(keyPackage, 'keyPackage', true);
    assertPublicKeyPackage(publicKeyPackage, 'publicKeyPackage', true);
    const id = keyPackage.identifier;
    const share = parseScalar(keyPackage.signingShare, 'keyPackage.signingShare');
    if (!Point.BASE.multiply(share).equals(parsePoint(publicKeyPackage.verifyingShares[id], 'verifyingShare'))) {
      throw new CryptoError('KEY_MISMATCH', `signing share of participant ${id} does not match its verifying share`, [id]);
    }
    if (!equalBytes(keyPackage.verifyingShare, publicKeyPackage.verifyingShares[id])) {
      throw new CryptoError('KEY_MISMATCH', `keyPackage.verifyingShare differs from the public key package`, [id]);
    }
    if (!equalBytes(keyPackage.verifyingKey, publicKeyPackage.verifyingKey)) {
      throw new CryptoError('KEY_MISMATCH', 'keyPackage.verifyingKey differs from the public key package');
    }
    // Lagrange at 0 for x = {1, 2}: λ1 = 2, λ2 = −1.
    const y1 = parsePoint(publicKeyPackage.verifyingShares[1], 'verifyingShares[1]');
    const y2 = parsePoint(publicKeyPackage.verifyingShares[2], 'verifyingShares[2]');
    const y = parsePoint(publicKeyPackage.verifyingKey, 'verifyingKey');
    if (!y1.multiply(2n).add(y2.multiply(Fn.neg(1n))).equals(y)) {
      throw new CryptoError('KEY_MISMATCH', 'verifying shares do not interpolate to the group verifying key');
    }
  }

  /** Round 1: fresh nonces and their commitments for `keyPackage.identifier`. */
  function round1(keyPackage: KeyPackage, rng?: RNG): Round1Output {
    assertKeyPackage(keyPackage, 'keyPackage', false);
    const commit = () => frost.commit(toNobleSecret(keyPackage), rng);
    const { nonces, commitments, witness } = suite.commitRemembering ? suite.commitRemembering(commit) : { ...commit(), witness: undefined };
    return {
      nonces: { hiding: nonces.hiding, binding: nonces.binding },
      commitments: { identifier: keyPackage.identifier, hiding: commitments.hiding, binding: commitments.binding, ...(witness && { witness }) },
    };
  }

  /**
   * Round 2: this participant's signature share. Zeroes `nonces` in place on success, so a second
   * call with the same object fails with STATE_CONSUMED.
   */
  function round2(args: {
    msg: Uint8Array;
    keyPackage: KeyPackage;
    nonces: SigningNonces;
    commitments: readonly SigningCommitments[];
  }): Uint8Array {
    assertObject(args, 'args');
    const { msg, keyPackage, nonces } = args;
    assertBytes(msg, 'msg');
    assertKeyPackage(keyPackage, 'keyPackage', false);
    assertNonces(nonces, 'nonces');
    const list = commitmentList(args.commitments);
    const pub: FrostPublic = {
      signers: { min: 2, max: 2 },
      commitments: [nb(keyPackage.verifyingKey)],
      verifyingShares: {},
    };
    try {
      const sign = () => frost.signShare(toNobleSecret(keyPackage), pub, nonces, toNobleCommitments(list), msg);
      return suite.withOwnCommitments ? suite.withOwnCommitments(nonces, sign) : sign();
    } catch (e) {
      commitmentList(list, true); // names a peer's invalid point, if that is what noble rejected
      parsePoint(keyPackage.verifyingKey, 'keyPackage.verifyingKey');
      // What is left for noble to reject: our own commitment does not match our nonces.
      throw new CryptoError('INVALID_COMMITMENT', `round 2 rejected: ${(e as Error).message}`, [keyPackage.identifier]);
    }
  }

  /**
   * Aggregates both shares into a signature. noble verifies the aggregate against the group key
   * and, if it fails, verifies each share to find who sent a bad one: that participant is named
   * in INVALID_SIGNATURE_SHARE.culprits.
   */
  function aggregate(args: {
    msg: Uint8Array;
    publicKeyPackage: PublicKeyPackage;
    commitments: readonly SigningCommitments[];
    signatureShares: Record<ParticipantId, Uint8Array>;
  }): Uint8Array {
    assertObject(args, 'args');
    const { msg, publicKeyPackage, signatureShares } = args;
    assertBytes(msg, 'msg');
    assertPublicKeyPackage(publicKeyPackage, 'publicKeyPackage', false);
    const list = commitmentList(args.commitments);
    assertObject(signatureShares, 'signatureShares');
    for (const id of IDS) parseShare(signatureShares[id], id);
    suite.precomputeCached?.(publicKeyPackage.verifyingKey);
    let signature: Uint8Array;
    try {
      signature = frost.aggregate(toNoblePublic(publicKeyPackage), toNobleCommitments(list), msg, {
        [idHex(1)]: signatureShares[1],
        [idHex(2)]: signatureShares[2],
      });
    } catch (e) {
      const cheaters = (e as { cheaters?: string[] }).cheaters ?? [];
      const culprits = IDS.filter((id) => cheaters.includes(idHex(id)));
      if (culprits.length > 0) {
        throw new CryptoError('INVALID_SIGNATURE_SHARE', `signature share of participant ${culprits.join(' and ')} is invalid`, culprits);
      }
      commitmentList(list, true);
      assertPublicKeyPackage(publicKeyPackage, 'publicKeyPackage', true);
      throw new CryptoError('INVALID_SIGNATURE', `aggregation failed: ${(e as Error).message}`);
    }
    // noble verified z against R and the group key. It does not decode R again, so the one thing
    // verify() would still refuse is R = identity (RFC 9591 §3.1); refused here, so callers need no
    // second verification of the returned bytes.
    if (equalBytes(signature.subarray(0, pointBytes), identityBytes)) throw new CryptoError('INVALID_SIGNATURE', 'aggregated R is the identity');
    return signature;
  }

  function parseShare(share: unknown, id: ParticipantId): void {
    assertBytes(share, `signature share of participant ${id}`, Fn.BYTES);
    try {
      Fn.fromBytes(share);
    } catch {
      throw new CryptoError('INVALID_SIGNATURE_SHARE', `signature share of participant ${id} is not a canonical scalar`, [id]);
    }
  }

  /** Verifies a complete signature against the group key (noble's cofactored check). */
  function verify(signature: Uint8Array, msg: Uint8Array, verifyingKey: Uint8Array): boolean {
    assertBytes(signature, 'signature', pointBytes + Fn.BYTES);
    assertBytes(msg, 'msg');
    assertBytes(verifyingKey, 'verifyingKey', pointBytes);
    try {
      return frost.verify(nb(signature), nb(msg), nb(verifyingKey));
    } catch {
      parsePoint(verifyingKey, 'verifyingKey'); // an unusable key is the caller's error...
      return false; // ...an undecodable R or non-canonical z is just an invalid signature
    }
  }

  return { name: suite.name, frost, checked: suite.checked, counts: suite.counts, parsePoint, parseScalar, deal, checkKeyPackage, round1, round2, aggregate, verify };
}
