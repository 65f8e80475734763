import type { EdwardsPoint, EdwardsPointCons } from '@noble/curves/abstract/edwards.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, equalBytes, hexToBytes } from '@noble/curves/utils.js';
import type { SigningNonces, SubgroupWitness } from '../frost/types.js';

/**
 * Bounded map from exact 32-byte encodings to their decoded point, holding only encodings whose
 * point is known to be in the prime-order subgroup.
 *
 * Why this is sound: a strict RFC 8032 decode maps an encoding to one point, so "the point of
 * these bytes is torsion-free" is a property of the bytes alone, and noble points are immutable
 * (frozen), so the decoded point can be handed out again. The key is the exact encoding (hex of
 * all 32 bytes, sign bit included): another encoding of the same or a nearby point is a
 * different key and gets decoded and checked in full. Only three things put a key here: the
 * subgroup check itself having passed for a point strictly decoded from exactly these bytes; a
 * point this process computed as nonce·G (round-1 commitments, commitRemembering), which is in
 * the subgroup by construction; and a subgroup witness W with [8]W encoding to exactly these
 * bytes (acceptWitness). The other checks (on the curve, not the identity, canonical) are cheap
 * and run on every decode, cached or not.
 *
 * Bounded so a stream of distinct valid points costs memory O(limit); the oldest key is dropped
 * first, and a hit moves a key to the back, so long-lived keys (group keys) stay.
 */
export class SubgroupCheckCache {
  private readonly points = new Map<string, EdwardsPoint>();

  constructor(readonly limit = 4096) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  }

  /** The point of exactly these bytes if they passed the subgroup check before, else undefined. */
  get(encoding: Uint8Array): EdwardsPoint | undefined {
    const key = bytesToHex(encoding);
    const p = this.points.get(key);
    if (p === undefined) return undefined;
    this.points.delete(key);
    this.points.set(key, p);
    return p;
  }

  has(encoding: Uint8Array): boolean {
    return this.points.has(bytesToHex(encoding));
  }

  /** Internal to the point class: `p` was strictly decoded from `encoding` and is torsion-free. */
  set(encoding: Uint8Array, p: EdwardsPoint): void {
    const key = bytesToHex(encoding);
    this.points.delete(key);
    this.points.set(key, p);
    if (this.points.size > this.limit) {
      const oldest = this.points.keys().next().value;
      if (oldest !== undefined) this.points.delete(oldest);
    }
  }

  get size(): number {
    return this.points.size;
  }

  clear(): void {
    this.points.clear();
  }
}
/**
 * An ed25519 point class for noble's `createFROST` whose strict `fromBytes` remembers, in a
 * {@link SubgroupCheckCache}, which exact encodings passed the prime-order subgroup check
 * (`[L]P = 0`, about one variable-base multiplication) and hands out their decoded point again.
 * noble checks every public point it decodes, on every call, and a signature decodes the same
 * group key and commitments several times; with this class each distinct encoding pays the
 * decoding and the check once. Everything else is noble's point: arithmetic results are plain
 * noble points (no shortcut), and `assertValidity` / `is0` run unchanged on every decode. The
 * one exception is the class's BASE, which computes round 1's two products nonce·G as
 * [8]·((nonce/8)·G), keeping W = (nonce/8)·G as the commitment's subgroup witness for the peer,
 * remembers them and gives them back when noble's round 2 multiplies the same nonces again.
 *
 * noble freezes its points, so "decoded from these bytes, not yet checked" is kept beside them in
 * a WeakMap until the point's own subgroup check passes.
 */
export function createCheckedPointClass(cache: SubgroupCheckCache) {
  const NoblePoint: EdwardsPointCons = ed25519.Point;
  const known = new WeakSet<EdwardsPoint>();
  const pending = new WeakMap<EdwardsPoint, Uint8Array>();
  const withTable = new WeakSet<EdwardsPoint>();
  const wrap = (bytes: Uint8Array, zip215: boolean): EdwardsPoint => {
    const p = NoblePoint.fromBytes(bytes, zip215);
    return new CheckedPoint(p.X, p.Y, p.Z, p.T);
  };
  /** nonce·G as noble computed it, and W = (nonce/8)·G with [8]W = nonce·G (a subgroup witness). */
  type Product = readonly [scalar: bigint, point: EdwardsPoint, witness: EdwardsPoint];
  /** Per round-1 nonces (keyed by their hiding bytes): the products nonce·G noble computed. */
  const ownProducts = new WeakMap<Uint8Array, Product[]>();
  /** Collects BASE's products during one synchronous commit call (commitRemembering). */
  let collecting: Product[] | undefined;
  /** Lent to BASE.multiply during one synchronous signShare call (withOwnCommitments). */
  let lent: readonly Product[] | undefined;
  /**
   * For the tests and benches: base multiplications handed to noble (constant-time, blinded), and
   * subgroup checks run in full ([L]P, about 1.5 ed25519.sign each).
   */
  const counts = { baseMultiplications: 0, subgroupChecks: 0 };

  class CheckedPoint extends NoblePoint {
    /** Only strict (non-ZIP-215) decoding consults and feeds the cache. */
    static override fromBytes(bytes: Uint8Array, zip215 = false): EdwardsPoint {
      if (zip215) return wrap(bytes, true);
      const hit = cache.get(bytes);
      if (hit) return hit;
      const q = wrap(bytes, false);
      pending.set(q, Uint8Array.from(bytes));
      return q;
    }

    static override fromHex(hex: string, zip215 = false): EdwardsPoint {
      return CheckedPoint.fromBytes(hexToBytes(hex), zip215);
    }

    /**
     * The class's BASE hands its multiplications to noble's own BASE (its window tables, and for
     * `multiply` its constant-time blinded path), except for a product lent by withOwnCommitments:
     * the one noble computed in round 1 for the same scalar, matched by value. (Checked here
     * rather than in a subclass for BASE: a third point class slowed noble's own arithmetic in
     * the whole process by about a third, ed25519.sign included.)
     */
    override multiply(scalar: bigint): EdwardsPoint {
      if (this !== base) return super.multiply(scalar);
      if (lent) for (const [s, p] of lent) if (s === scalar) return p;
      counts.baseMultiplications++;
      if (!collecting) return G.multiply(scalar);
      // Round 1: the commitment is computed as [8]·((nonce/8)·G), the same point as nonce·G
      // (G has order L), so the party also holds a witness of its subgroup membership to send.
      // One constant-time multiplication, as before, plus three doublings.
      const witness = G.multiply(NoblePoint.Fn.mul(scalar, INV8));
      const p = witness.double().double().double();
      collecting.push([scalar, p, witness]);
      return p;
    }

    override multiplyUnsafe(scalar: bigint): EdwardsPoint {
      return this === base ? G.multiplyUnsafe(scalar) : super.multiplyUnsafe(scalar);
    }

    override isTorsionFree(): boolean {
      if (known.has(this)) return true;
      counts.subgroupChecks++;
      const ok = super.isTorsionFree();
      const bytes = pending.get(this);
      if (ok && bytes) remember(bytes, this);
      return ok;
    }
  }

  const G = NoblePoint.BASE;
  const INV8 = NoblePoint.Fn.inv(8n);
  /** CheckedPoint.BASE: noble's generator, as a point of this class (see multiply). */
  const base: EdwardsPoint = new CheckedPoint(G.X, G.Y, G.Z, G.T);
  Object.defineProperty(CheckedPoint, 'BASE', { value: base, enumerable: true });

  function remember(bytes: Uint8Array, p: EdwardsPoint): void {
    known.add(p);
    pending.delete(p);
    cache.set(bytes, p);
  }

  /**
   * Runs noble's round-1 `commit` and records what it computed: each commitment is nonce·G, so
   * its encoding is in the subgroup by construction (no later decode repeats the subgroup check)
   * and the point itself goes to the cache without decoding it (when its encoding is the
   * commitment's bytes); the products are kept with the nonces for withOwnCommitments,
   * because noble's signShare re-derives both to compare them with the commitment list: two
   * constant-time base multiplications that round 1 already did. Also returns the encodings of
   * the two subgroup witnesses (see BASE's multiply), for the peer. A product that cannot be
   * matched is simply not kept (the commitment is then decoded, round 2 multiplies in full, and
   * there is no witness).
   */
  function commitRemembering<T extends { nonces: SigningNonces; commitments: { hiding: Uint8Array; binding: Uint8Array } }>(
    commit: () => T,
  ): T & { witness?: SubgroupWitness } {
    collecting = [];
    let out: T;
    let made: Product[];
    try {
      out = commit();
    } finally {
      made = collecting;
      collecting = undefined;
    }
    const own = (nonce: Uint8Array, encoding: Uint8Array): Product | undefined => {
      const scalar = NoblePoint.Fn.fromBytes(nonce);
      const product = made.find(([s]) => s === scalar);
      const matches = product !== undefined && equalBytes(product[1].toBytes(), encoding);
      if (!cache.has(encoding)) {
        const bytes = Uint8Array.from(encoding);
        const p = matches ? new CheckedPoint(product[1].X, product[1].Y, product[1].Z, product[1].T) : wrap(bytes, false);
        remember(bytes, p);
      }
      // Lent as noble computed it: a product is exactly BASE.multiply(scalar), whatever the cache holds.
      return matches ? product : undefined;
    };
    const hiding = own(out.nonces.hiding, out.commitments.hiding);
    const binding = own(out.nonces.binding, out.commitments.binding);
    if (!hiding || !binding) return out;
    ownProducts.set(out.nonces.hiding, [hiding, binding]);
    return { ...out, witness: { hiding: hiding[2].toBytes(), binding: binding[2].toBytes() } };
  }

  /**
   * Accepts `encoding` as a point of the prime-order subgroup on the strength of `witness`: the
   * strict decoding of the witness, multiplied by the cofactor 8 (three doublings), must be a
   * point other than the identity whose canonical encoding is exactly `encoding`. The curve's
   * group is Z/8 × Z/L, so [8] maps every point into the subgroup of order L and onto all of it:
   * an encoding has such a witness if and only if its point passes the check [L]P = 0, which
   * costs ~8x more than this (~0.23 against ~1.5 ed25519.sign). The point goes to the cache as
   * checked; any of the eight points W + T (T of small order) is a witness of the same encoding.
   * Returns false (and caches nothing) for a witness that is not a canonical point encoding or
   * does not multiply to `encoding`.
   */
  function acceptWitness(encoding: Uint8Array, witness: Uint8Array): boolean {
    let w: EdwardsPoint;
    try {
      w = NoblePoint.fromBytes(witness, false);
    } catch {
      return false;
    }
    if (!equalBytes(w.toBytes(), witness)) return false;
    const p = w.double().double().double();
    if (p.is0() || !equalBytes(p.toBytes(), encoding)) return false;
    if (!cache.has(encoding)) remember(Uint8Array.from(encoding), new CheckedPoint(p.X, p.Y, p.Z, p.T));
    return true;
  }

  /**
   * Runs `sign` (noble's signShare with these nonces) with the products round 1 recorded for this
   * nonces object lent to BASE.multiply, then takes them back; they serve one call, as the nonces
   * do. A product is used only for the very scalar it was computed from, so noble's comparison
   * with the commitment list keeps its meaning: nonces changed since round 1, or another round's
   * commitment in the list, are refused as before. Nonces round 1 did not make here (unsealed
   * from a session) are multiplied in full.
   */
  function withOwnCommitments<T>(nonces: SigningNonces, sign: () => T): T {
    const products = ownProducts.get(nonces.hiding);
    if (!products) return sign();
    ownProducts.delete(nonces.hiding);
    lent = products;
    try {
      return sign();
    } finally {
      lent = undefined;
    }
  }

  /**
   * Gives the cached point of a long-lived key (the group key, multiplied by the challenge in
   * every aggregation's verification) a width-4 window table: built on its first multiplication
   * (about ten ed25519.sign of CPU once, ~100 KB, freed with the cache entry), it makes each later
   * multiplication ~3x cheaper. Does nothing for an encoding that is not cached.
   */
  function precomputeCached(encoding: Uint8Array): void {
    const p = cache.get(encoding);
    // precompute() drops a point's table and starts over: once per point.
    if (!p || withTable.has(p)) return;
    withTable.add(p);
    p.precompute(4);
  }

  return { Point: CheckedPoint, commitRemembering, withOwnCommitments, acceptWitness, precomputeCached, counts: counts as Readonly<typeof counts> };
}
