// Shared helpers of the ECDSA tests: drive both parties' state machines in-process, with every
// message and state passed through JSON as it would cross HTTP or sit in the database.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { dealSecp256k1 } from '../src/index.js';
import { type EcdsaKeyShare, type Presignature, type Triple, presignClientStart, presignClientStep, presignServerStart, presignServerStep, tripleGenClientStart, tripleGenClientStep, tripleGenServerStart, tripleGenServerStep } from '../src/ecdsa/index.js';

export const Fn = secp256k1.Point.Fn;
export const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
export const big = (hex: string): bigint => BigInt('0x' + hex);
/** Lagrange at 0 over x = 1, 2: f(0) = 2·f(1) − f(2). */
export const combine = (s1: string, s2: string): bigint => Fn.create(2n * big(s1) - big(s2));

/** Optional tampering hook: sees each message (by type) and may return a replacement. */
export type Tamper = (type: string, msg: Record<string, unknown>) => Record<string, unknown> | void;

/** How a state is stored between steps: JSON by default; tests may rewrite it on the way. */
export type Persist = <T>(state: T) => T;

export function runTriples(count: number, tamper: Tamper = () => undefined, maxCount?: number, persist: Persist = json): { client: Triple[]; server: Triple[] } {
  const t = (m: unknown) => {
    const copy = json(m) as Record<string, unknown>;
    return tamper(copy.type as string, copy) ?? copy;
  };
  const c = tripleGenClientStart({ count });
  const s0 = tripleGenServerStart(maxCount === undefined ? {} : { maxCount });
  const r1 = tripleGenServerStep(persist(s0), t(c.outgoing));
  const c2 = tripleGenClientStep(persist(c.state), t(r1.outgoing));
  const r2 = tripleGenServerStep(persist(r1.state), t(c2.outgoing));
  const c3 = tripleGenClientStep(persist(c2.state), t(r2.outgoing));
  const r3 = tripleGenServerStep(persist(r2.state), t(c3.outgoing));
  const fin = tripleGenClientStep(persist(c3.state), t(r3.outgoing));
  if (!r3.done || !fin.done) throw new Error('triple generation did not finish');
  return { client: fin.output, server: r3.output };
}

export function keyShares(secret = secp256k1.utils.randomSecretKey()): { client: EcdsaKeyShare; server: EcdsaKeyShare; publicKey: Uint8Array; secret: Uint8Array } {
  const deal = dealSecp256k1(secret);
  return {
    client: { ...deal.shares[0], publicKey: deal.publicKey },
    server: { ...deal.shares[1], publicKey: deal.publicKey },
    publicKey: deal.publicKey,
    secret,
  };
}

export const pairs = (ts: Triple[]): [Triple, Triple][] => Array.from({ length: ts.length / 2 }, (_, i) => [ts[2 * i]!, ts[2 * i + 1]!]);

export function runPresign(
  keys: ReturnType<typeof keyShares>,
  triples: { client: Triple[]; server: Triple[] },
  tamper: Tamper = () => undefined,
  persist: Persist = json,
): { client: Presignature[]; server: Presignature[] } {
  const t = (m: unknown) => {
    const copy = json(m) as Record<string, unknown>;
    return tamper(copy.type as string, copy) ?? copy;
  };
  const c = presignClientStart({ keyShare: keys.client, triples: pairs(triples.client) });
  const s = presignServerStart({ keyShare: keys.server, triples: pairs(triples.server) });
  const r1 = presignServerStep(persist(s), t(c.outgoing));
  const c2 = presignClientStep(persist(c.state), t(r1.outgoing));
  const r2 = presignServerStep(persist(r1.state), t(c2.outgoing));
  const fin = presignClientStep(json(c2.state), t(r2.outgoing));
  if (!r2.done || !fin.done) throw new Error('presign did not finish');
  return { client: fin.output, server: r2.output };
}

/** Replaces the hex scalar at item `i` of a blob with `value` (mod n, 32 bytes). */
export function setBlobScalar(blob: string, i: number, value: bigint): string {
  const hex = Fn.create(value).toString(16).padStart(64, '0');
  return blob.slice(0, 64 * i) + hex + blob.slice(64 * i + 64);
}
export const blobScalar = (blob: string, i: number): bigint => big(blob.slice(64 * i, 64 * i + 64));

/**
 * A state as an earlier version wrote it: every uncompressed point (130 hex digits, 04…)
 * rewritten compressed. `count` says how many were rewritten, so a test can tell it was not a no-op.
 */
export function withCompressedPoints(count: { n: number }): Persist {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && v.length === 130 && v.startsWith('04')) {
      count.n++;
      return secp256k1.Point.fromHex(v).toHex(true);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return <T>(state: T) => walk(json(state)) as T;
}
