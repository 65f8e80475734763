import { createPublicKey, randomBytes, verify as nodeVerify } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { dealSecp256k1, toHex } from '@svc/crypto';
import { presignClientStart, presignClientStep, signShareClient, tripleGenClientStart, tripleGenClientStep, type EcdsaKeyShare, type Presignature, type Triple } from '@svc/crypto/ecdsa';
import { post, type Envelope } from './wallet-client.js';

/*
 * The client half of two-party ECDSA over real HTTP (fetch), as the SDK does it: used by the
 * ECDSA tests and by `pnpm bench:sign`. Every request is timed so the bench can report it.
 */

export interface EcdsaClientKey {
  keyShare: EcdsaKeyShare;
  publicKey: Uint8Array;
  keygenBody: { secret_share: string; public_key: string; commitments: string[]; seed_part: string };
}

export interface PooledPresignature {
  id: string;
  presignature: Presignature;
}

export interface SignOutput {
  r: number[];
  s: number[];
  recovery_id: number;
}

export function newSecp256k1Key(): EcdsaClientKey {
  const deal = dealSecp256k1(randomBytes(32));
  return {
    keyShare: { identifier: 1, secretShare: deal.shares[0].secretShare, publicKey: deal.publicKey },
    publicKey: deal.publicKey,
    keygenBody: { secret_share: toHex(deal.shares[1].secretShare), public_key: toHex(deal.publicKey), commitments: deal.commitments.map(toHex), seed_part: 'ab'.repeat(33) },
  };
}

type Post = <T>(path: string, body: unknown) => Promise<Envelope<T>>;

export function poster(baseUrl: string, headers: Record<string, string>): Post {
  return <T>(path: string, body: unknown) => post<T>(baseUrl, path, body, headers);
}

function data<T>(res: Envelope<T>, what: string): T {
  if (res.status !== 200 || !res.body.data) throw new Error(`${what} ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** One batch of `count` triples: 3 round trips. `via` picks the server of each step (replicas). */
export async function generateTriples(via: (step: number) => Post, count: number): Promise<Triple[]> {
  const start = tripleGenClientStart({ count });
  let state = start.state;
  let outgoing: unknown = start.outgoing;
  let sessionId: string | undefined;
  for (let step = 1; ; step++) {
    const reply = data(await via(step)<{ session_id: string; msg: unknown; done: boolean }>('/tss/v1/triples', { ...(sessionId ? { session_id: sessionId } : {}), msg: outgoing }), `triples/${step}`);
    sessionId = reply.session_id;
    const r = tripleGenClientStep(state, reply.msg);
    if (r.done) return r.output;
    state = r.state;
    outgoing = r.outgoing;
  }
}

/** M presignatures from 2·M triples: 2 round trips. */
export async function presign(via: (step: number) => Post, keyShare: EcdsaKeyShare, triples: Triple[]): Promise<PooledPresignature[]> {
  const pairs: [Triple, Triple][] = [];
  for (let i = 0; i + 1 < triples.length; i += 2) pairs.push([triples[i]!, triples[i + 1]!]);
  const start = presignClientStart({ keyShare, triples: pairs });
  const r1 = data(await via(1)<{ session_id: string; msg: unknown }>('/tss/v1/presign', { msg: start.outgoing }), 'presign/1');
  const s1 = presignClientStep(start.state, r1.msg);
  if (s1.done) throw new Error('presign ended early');
  const r2 = data(await via(2)<{ session_id: string; msg: unknown; presignature_ids: string[] }>('/tss/v1/presign', { session_id: r1.session_id, msg: s1.outgoing }), 'presign/2');
  const s2 = presignClientStep(s1.state, r2.msg);
  if (!s2.done) throw new Error('presign did not end');
  return s2.output.map((p) => ({ id: r2.presignature_ids[p.index]!, presignature: p }));
}

/** Fills the pool: one triple batch (2 per presignature) and one presign run. */
export async function fillPool(via: (step: number) => Post, keyShare: EcdsaKeyShare, count: number): Promise<PooledPresignature[]> {
  return presign(via, keyShare, await generateTriples(via, 2 * count));
}

/** One signature, one round trip: /tss/v1/sign (or step1) carries the client share. */
export async function signOneTrip(p: Post, pooled: PooledPresignature, hash: Uint8Array, path: '/tss/v1/sign' | '/tss/v1/sign/step1' = '/tss/v1/sign'): Promise<{ sessionId: string; output: SignOutput }> {
  const share = signShareClient(pooled.presignature, hash);
  const res = data(
    await p<{ session_id: string; sign_output: SignOutput }>(path, { msg: Array.from(hash), msgs_1: { presignature_id: pooled.id, signature_share: share.signature_share } }),
    path,
  );
  return { sessionId: res.session_id, output: res.sign_output };
}

/** One signature with both steps (step1 spends the presignature, step2 carries the share). */
export async function signTwoSteps(via: (step: number) => Post, pooled: PooledPresignature, hash: Uint8Array): Promise<{ sessionId: string; output: SignOutput }> {
  const s1 = data(await via(1)<{ session_id: string; msgs_0: { big_r: string } }>('/tss/v1/sign/step1', { msg: Array.from(hash), msgs_1: { presignature_id: pooled.id } }), 'sign/step1');
  if (s1.msgs_0.big_r !== pooled.presignature.big_r) throw new Error('server spent another presignature');
  const share = signShareClient(pooled.presignature, hash);
  const s2 = data(
    await via(2)<{ session_id: string; sign_output: SignOutput }>('/tss/v1/sign/step2', { session_id: s1.session_id, msg: Array.from(hash), msgs_1: { signature_share: share.signature_share } }),
    'sign/step2',
  );
  return { sessionId: s1.session_id, output: s2.sign_output };
}

export function signatureBytes(o: SignOutput): Uint8Array {
  return Uint8Array.from([...o.r, ...o.s]);
}

/** OpenSSL (node:crypto) verification of r‖s over a message whose SHA-256 is the signed hash. */
export function verifySha256WithNode(o: SignOutput, message: Uint8Array, publicKey: Uint8Array): boolean {
  const p = secp256k1.Point.fromBytes(publicKey).toAffine();
  const b64 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex').toString('base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'secp256k1', x: b64(p.x), y: b64(p.y) }, format: 'jwk' });
  return nodeVerify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, signatureBytes(o));
}

/** The public key recovered from (r, s, recovery_id) and the hash, compressed hex. */
export function recoverPublicKey(o: SignOutput, hash: Uint8Array): string {
  const sig = secp256k1.Signature.fromBytes(signatureBytes(o), 'compact').addRecoveryBit(o.recovery_id);
  return toHex(sig.recoverPublicKey(hash).toBytes(true));
}
