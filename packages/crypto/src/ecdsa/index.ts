/**
 * Two-party threshold ECDSA on secp256k1 (cait-sith protocol family): client P0 holds the
 * Shamir share at x = 1, server P1 at x = 2, threshold 2. Pure functions over JSON values; no
 * I/O. Every protocol is a transport-agnostic state machine whose states and messages are plain
 * JSON (versioned, strictly decoded); the client always initiates and the server answers.
 *
 * Triples (offline, batched: one run yields `count` triples, two per presignature; 3 round trips)
 *   tripleGenClientStart({ count })            -> { state, outgoing: triples/1 }
 *   tripleGenServerStart({ maxCount? })        -> state (awaiting triples/1)
 *   tripleGenServerStep(state, msg)            -> { done, state, outgoing, output?: Triple[] }
 *   tripleGenClientStep(state, msg)            -> { done, state, outgoing? , output?: Triple[] }
 *   TripleGen.start(role, params) / TripleGen.step(state, msg)   (same, dispatching on role)
 *
 * Presign (offline; M presignatures from M pairs of triples; 2 round trips)
 *   presignClientStart({ keyShare, triples: [[t0, t1], ...] }) -> { state, outgoing: presign/1 }
 *   presignRequestedTriples(presign/1)         -> [{ session_id, index }, ...] for the server's lookup
 *   presignServerStart({ keyShare, triples })  -> state      (marks the triples consumed)
 *   presignServerStep(state, msg) / presignClientStep(state, msg)
 *   Presign.start(role, params) / Presign.step(state, msg)
 *
 * Sign (online; 1 round trip; either party combines: tss-api does, with the client's share)
 *   signShareServer(presignature, msgHash32)  -> sign/share message (consumes the presignature)
 *   signShareClient(presignature, msgHash32)  -> the client's sign/share, for a server that combines
 *   signCombine(presignature, msgHash32, peerShare, publicKey?) -> { signature (r‖s, low-s), r, s, recovery }
 *   presignatureR(presignature)               -> r = x(R) mod n, to check a signature the peer combined
 *
 * Costs: tripleBatchCost(count), TRIPLE_GEN_ROUND_TRIPS, PRESIGN_ROUND_TRIPS, SIGN_ROUND_TRIPS.
 *
 * Failure: every failed check throws CryptoError with a code and `culprits` ([1] client,
 * [2] server); the state object passed in is rewritten to phase "aborted" (persist it) and
 * refuses further steps. Triples and presignatures are single-use objects: the crypto layer
 * marks them consumed and refuses them again (STATE_CONSUMED); the service must additionally
 * consume them atomically in its database. See docs/crypto/ecdsa.md.
 */
import { CryptoError } from '../errors.js';
import {
  type PresignParams,
  type PresignResult,
  type PresignState,
  presignClientStart,
  presignClientStep,
  presignServerStart,
  presignServerStep,
} from './presign/presign.js';
import type { Role } from './common/state.js';
import { type TripleGenResult, type TripleGenState, tripleGenClientStart, tripleGenClientStep } from './triples/triple-gen-client.js';
import { tripleGenServerStart, tripleGenServerStep } from './triples/triple-gen-server.js';

export { tripleGenClientStart, tripleGenClientStep, type TripleGenResult, type TripleGenState, TRIPLE_GEN_KIND } from './triples/triple-gen-client.js';
export { tripleGenServerStart, tripleGenServerStep } from './triples/triple-gen-server.js';
export type { TripleGenMessage, TriplesMsg1, TriplesMsg1Reply, TriplesMsg2, TriplesMsg2Reply, TriplesMsg3, TriplesMsg3Reply } from './triples/triple-gen-wire.js';
export { DEFAULT_MAX_TRIPLES_PER_RUN } from './triples/triple-gen-common.js';
export type { Triple } from './triples/triple.js';
export {
  presignClientStart,
  presignClientStep,
  presignServerStart,
  presignServerStep,
  presignRequestedTriples,
  MAX_PRESIGNATURES_PER_RUN,
  PRESIGN_KIND,
  type PresignParams,
  type PresignState,
  type PresignResult,
  type PresignMessage,
  type PresignMsg1,
  type PresignMsg1Reply,
  type PresignMsg2,
  type PresignMsg2Reply,
  type TripleRef,
} from './presign/presign.js';
export type { Presignature } from './presign/presignature.js';
export type { EcdsaKeyShare } from './common/key-share.js';
export { signShareServer, signShareClient, type SignatureShareMessage, type EcdsaSignature } from './sign/sign.js';
export { signCombine, presignatureR } from './sign/combine.js';
export { tripleBatchCost, type TripleBatchCost, TRIPLE_GEN_ROUND_TRIPS, PRESIGN_ROUND_TRIPS, SIGN_ROUND_TRIPS } from './cost.js';
export { ECDSA_CIPHERSUITE, ECDSA_WIRE_VERSION } from './common/wire.js';
export type { ProtocolState as EcdsaProtocolState, StepResult as EcdsaStepResult, Role as EcdsaRole } from './common/state.js';

/** Role-dispatching entry points of triple generation. */
export const TripleGen = {
  start(role: Role, params: { count?: number; maxCount?: number } = {}): { state: TripleGenState; outgoing?: unknown } {
    if (role === 'client') return tripleGenClientStart({ count: params.count as number });
    if (role === 'server') return { state: tripleGenServerStart(params.maxCount === undefined ? {} : { maxCount: params.maxCount }) };
    throw new CryptoError('INVALID_INPUT', 'role must be "client" or "server"');
  },
  step(state: TripleGenState, incoming: unknown): TripleGenResult {
    return state?.role === 'server' ? tripleGenServerStep(state, incoming) : tripleGenClientStep(state, incoming);
  },
};

/** Role-dispatching entry points of presign. */
export const Presign = {
  start(role: Role, params: PresignParams): { state: PresignState; outgoing?: unknown } {
    if (role === 'client') return presignClientStart(params);
    if (role === 'server') return { state: presignServerStart(params) };
    throw new CryptoError('INVALID_INPUT', 'role must be "client" or "server"');
  },
  step(state: PresignState, incoming: unknown): PresignResult {
    return state?.role === 'server' ? presignServerStep(state, incoming) : presignClientStep(state, incoming);
  },
};
