import { equalBytes } from '@noble/curves/utils.js';
import { presignClientStart, presignClientStep, presignatureR, signShareClient, tripleGenClientStart, tripleGenClientStep, type EcdsaKeyShare, type Presignature, type Triple } from '@svc/crypto/ecdsa';
import { tssApi } from '@svc/contract/client';
import { SvcError, isSvcError } from '../errors.js';
import { call } from '../http/call.js';
import type { Secp256k1RawSignature } from '../signers.js';
import { asSvcError } from '../wallet/protocol-errors.js';
import type { AuthedPoster } from './ed25519-threshold-signer.js';
import type { EcdsaSignStep } from './secp256k1-threshold-signer.js';

/*
 * The client half (P0) of two-party ECDSA against tss-api (docs/api/tss-ecdsa.md):
 * - offline: one triples run (3 round trips) for 2·M triples, one presign run (2 round trips)
 *   for M presignatures; the server keeps its halves in its pool, we keep ours in memory;
 * - online: /tss/v1/sign carrying our signature share, one round trip, the server combines.
 */

/** A client presignature and the id of its server half in tss-api's pool. */
export interface PooledPresignature {
  id: string;
  presignature: Presignature;
}

/** Best effort: a session we will not finish should not wait for its TTL. */
async function abort(api: AuthedPoster, sessionId: string | undefined): Promise<void> {
  if (sessionId) await call(api, tssApi.sessionAbort, { session_id: sessionId }).catch(() => undefined);
}

/** A server answer our state machine refused: abort the session, report PROTOCOL_ERROR. */
async function refused(api: AuthedPoster, sessionId: string | undefined, what: string, err: unknown): Promise<never> {
  await abort(api, sessionId);
  throw asSvcError(err, what);
}

/** A wire message of @svc/crypto ecdsa as the contract types it: a JSON object (its shape is the receiver's state machine's to check). */
const wire = (msg: object): Record<string, unknown> => ({ ...msg });

function sessionOf(reply: { session_id?: unknown }, what: string): string {
  if (typeof reply?.session_id !== 'string') throw new SvcError('PROTOCOL_ERROR', `${what} answered without a session_id`);
  return reply.session_id;
}

/** One triples run: `count` triples in 3 round trips. */
export async function generateTriples(api: AuthedPoster, count: number): Promise<Triple[]> {
  const start = tripleGenClientStart({ count });
  let state = start.state;
  let outgoing: object = start.outgoing;
  let sessionId: string | undefined;
  for (let step = 1; ; step++) {
    const reply = await call(api, tssApi.ecdsaTriples, { ...(sessionId ? { session_id: sessionId } : {}), msg: wire(outgoing) });
    sessionId = sessionOf(reply, `triples/${step}`);
    let next;
    try {
      next = tripleGenClientStep(state, reply.msg);
    } catch (err) {
      return refused(api, sessionId, `triples/${step} answer refused`, err);
    }
    if (next.done) return next.output;
    state = next.state;
    outgoing = next.outgoing;
  }
}

/** One presign run: a presignature per pair of triples, in 2 round trips. */
export async function presign(api: AuthedPoster, keyShare: EcdsaKeyShare, triples: Triple[]): Promise<PooledPresignature[]> {
  const pairs: [Triple, Triple][] = [];
  for (let i = 0; i + 1 < triples.length; i += 2) pairs.push([triples[i]!, triples[i + 1]!]);
  const start = presignClientStart({ keyShare, triples: pairs });
  const r1 = await call(api, tssApi.ecdsaPresign, { msg: wire(start.outgoing) });
  const sessionId = sessionOf(r1, 'presign/1');
  let s1;
  try {
    s1 = presignClientStep(start.state, r1.msg);
    if (s1.done) throw new SvcError('PROTOCOL_ERROR', 'presign ended after one step');
  } catch (err) {
    return refused(api, sessionId, 'presign/1 answer refused', err);
  }
  const r2 = await call(api, tssApi.ecdsaPresign, { session_id: sessionId, msg: wire(s1.outgoing) });
  try {
    const s2 = presignClientStep(s1.state, r2.msg);
    if (!s2.done) throw new SvcError('PROTOCOL_ERROR', 'presign did not end after two steps');
    const ids = r2.presignature_ids;
    if (!Array.isArray(ids) || ids.length !== s2.output.length || !ids.every((id) => typeof id === 'string') || new Set(ids).size !== ids.length) {
      throw new SvcError('PROTOCOL_ERROR', 'presign/2 answered without one distinct presignature id per presignature');
    }
    return s2.output.map((p) => ({ id: ids[p.index] as string, presignature: p }));
  } catch (err) {
    return refused(api, sessionId, 'presign/2 answer refused', err);
  }
}

export interface EcdsaProducerOptions {
  /** Whether the client still holds presignatures (a full server pool is then not orphaned). */
  holdsPresignatures: () => boolean;
}

/**
 * The producer of a PresignaturePool: triples then presign for `count` presignatures. When the
 * server's pool is full while this client holds none, the server's halves are orphans (this
 * client lost its halves: a reload, a new device): they are discarded and the fill retried
 * once. Another tab or device of the same user then finds its presignatures refused and refills.
 */
export function ecdsaPresignatureProducer(api: AuthedPoster, keyShare: () => Promise<EcdsaKeyShare>, options: EcdsaProducerOptions) {
  const once = async (count: number) => presign(api, await keyShare(), await generateTriples(api, 2 * count));
  return async (count: number): Promise<PooledPresignature[]> => {
    try {
      return await once(count);
    } catch (err) {
      if (!isSvcError(err, 'PRESIGNATURE_POOL_FULL') || options.holdsPresignatures()) throw err;
      await call(api, tssApi.ecdsaPresignDiscard, {});
      return once(count);
    }
  };
}

const isBytes32 = (v: unknown): v is number[] => Array.isArray(v) && v.length === 32 && v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255);

/**
 * Online signing in one round trip: our share goes with /tss/v1/sign, which spends the server's
 * half of the same presignature and answers the combined, verified signature. We check that r
 * is x(R) of our presignature (the server used the matching half); the chain layer then
 * verifies the signature under the wallet key, so a wrong answer is never returned.
 */
export const tssEcdsaSignStep = (api: AuthedPoster): EcdsaSignStep<PooledPresignature> => ({
  async sign(pooled, hash32): Promise<Secp256k1RawSignature> {
    const bigR = pooled.presignature.big_r;
    let share;
    try {
      share = signShareClient(pooled.presignature, hash32);
    } catch (err) {
      throw asSvcError(err, 'the pooled presignature is unusable');
    }
    const reply = await call(api, tssApi.ecdsaSign, {
      msg: Array.from(hash32),
      msgs_1: { presignature_id: pooled.id, signature_share: share.signature_share },
    });
    const out = reply?.sign_output;
    if (reply?.msgs_0?.big_r !== bigR) throw new SvcError('PROTOCOL_ERROR', 'sign spent another presignature than the one named');
    if (!out || !isBytes32(out.r) || !isBytes32(out.s) || !Number.isInteger(out.recovery_id)) {
      throw new SvcError('PROTOCOL_ERROR', 'sign answered without a well-formed sign_output');
    }
    const r = Uint8Array.from(out.r);
    if (!equalBytes(r, presignatureR(pooled.presignature))) throw new SvcError('PROTOCOL_ERROR', 'sign_output.r is not x(R) of the presignature');
    return { r, s: Uint8Array.from(out.s), recovery: ((out.recovery_id as number) & 1) as 0 | 1 };
  },
});
