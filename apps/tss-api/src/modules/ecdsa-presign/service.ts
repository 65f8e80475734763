import { randomUUID } from 'node:crypto';
import { presignRequestedTriples, presignServerStart, presignServerStep, type Presignature, type PresignState, type Triple } from '@svc/crypto/ecdsa';
import { AppError } from '@svc/envelope';
import type { ShareCipher } from '@svc/share-cipher';
import { openJsonValue, presignatureAad, sealJsonValue, sealState, tripleAad } from '../../kernel/ecdsa/sealed-material.js';
import { openServerKeyShare } from '../../kernel/ecdsa/server-key-share.js';
import { completeIntoPool } from '../../kernel/ecdsa/complete-into-pool.js';
import { claimStep } from '../../kernel/ecdsa/claim-step.js';
import type { ClaimSessionState } from '../../kernel/sessions/claim.js';
import { abortOnProtocolError, stepConflict, type StepRequest } from '../../kernel/ecdsa/step-errors.js';
import type { StepSessionRepo, StepSessionState } from '../../kernel/ecdsa/step-session-repo.js';
import { tripleRowId } from '../../kernel/ecdsa/triple-row-id.js';
import { usableWallet, type SigningWalletRepo } from '../../kernel/signing-wallet.js';
import type { SessionsRepo } from '../../kernel/sessions/repo.js';
import type { SessionsService } from '../../kernel/sessions/service.js';
import type { Caller } from '../../kernel/caller.js';
import type { EcdsaPresignRepo } from './repo.js';

export interface PresignConfig {
  /** Unused presignatures a wallet may hold (ECDSA_PRESIGNATURE_POOL_MAX). */
  poolMax: number;
  sessionTtlSeconds: number;
  /** ACTIVE triples/presign runs a wallet may have open (TSS_OPEN_SESSIONS_MAX). */
  openSessionsMax: number;
}

export interface PresignStepResponse {
  session_id: string;
  msg: object | null;
  done: boolean;
  /** After the last step: the pool ids of the new presignatures, element i for protocol index i. */
  presignature_ids?: string[];
}

class TriplesUnavailable extends Error {}

const poolFull = (max: number) => new AppError('PRESIGNATURE_POOL_FULL', `Presignature pool is full (at most ${max} unused presignatures per wallet)`);

/**
 * Presign, server side (P1): two client messages, two answers. Call 1 consumes exactly the
 * triples presign/1 names (one conditional UPDATE; the count must match) and commits that
 * before anything is computed from them; call 2 writes the server's presignatures to
 * presignature_pool (sealed) in the transaction that completes the session.
 */
export function ecdsaPresignService(deps: {
  wallets: SigningWalletRepo;
  repo: EcdsaPresignRepo;
  steps: StepSessionRepo;
  claim: ClaimSessionState;
  sessions: SessionsService;
  sessionsRepo: SessionsRepo;
  cipher: ShareCipher;
  config: PresignConfig;
}) {
  const { repo, steps, cipher, config } = deps;

  async function start(caller: Caller, msg: unknown): Promise<PresignStepResponse> {
    const wallet = usableWallet(await deps.wallets.secp256k1(caller.userId));
    let refs;
    try {
      refs = presignRequestedTriples(msg);
    } catch (error) {
      return abortOnProtocolError(deps.sessionsRepo, null, caller.userId, 'presign/1', error);
    }
    const count = refs.length / 2;
    if ((await repo.unusedCount(wallet.id)) + count > config.poolMax) throw poolFull(config.poolMax);

    const sessionId = randomUUID();
    const ids = refs.map((r) => tripleRowId(wallet.id, r.session_id, r.index));
    let taken;
    try {
      taken = await steps.transaction(async (tx) => {
        await steps.create(
          {
            id: sessionId,
            userId: caller.userId,
            walletId: wallet.id,
            kind: 'PRESIGN',
            state: { v: 1, next_step: 1, count },
            stage: 'triples_consumed',
            expiresAt: new Date(Date.now() + config.sessionTtlSeconds * 1000),
            customerId: caller.customerId,
            apiKeyId: caller.apiKeyId,
            openMax: config.openSessionsMax,
          },
          tx,
        );
        const rows = await repo.consumeTriples(tx, sessionId, wallet.id, ids);
        // Unknown, foreign, duplicated or already consumed triples: roll back, consume nothing.
        if (rows.length !== ids.length || new Set(ids).size !== ids.length) throw new TriplesUnavailable();
        return rows;
      });
    } catch (error) {
      if (error instanceof TriplesUnavailable) {
        throw new AppError('INVALID_PROTOCOL_MESSAGE', 'presign/1 refused: it names triples that are not unused triples of this wallet');
      }
      throw error;
    }

    // Committed: the triples are spent whatever happens next.
    const byId = new Map(taken.map((t) => [t.id, t]));
    const triples = ids.map((id) => {
      const row = byId.get(id)!;
      return openJsonValue<Triple>(cipher, { keyId: row.material_key_id, ciphertext: row.material }, tripleAad(id, wallet.id));
    });
    const pairs: [Triple, Triple][] = [];
    for (let i = 0; i < triples.length; i += 2) pairs.push([triples[i]!, triples[i + 1]!]);
    const keyShare = openServerKeyShare(cipher, wallet, caller.userId);
    let result;
    try {
      const state = presignServerStart({ keyShare, triples: pairs });
      result = presignServerStep(state, msg);
    } catch (error) {
      return abortOnProtocolError(deps.sessionsRepo, sessionId, caller.userId, 'presign/1', error);
    } finally {
      keyShare.secretShare.fill(0);
    }
    if (result.done) throw new AppError('INVALID_PROTOCOL_MESSAGE', 'presign/1 refused: unexpected end of protocol');
    const next: StepSessionState = { v: 1, next_step: 2, count, protocol: sealState(cipher, sessionId, result.state) };
    if (!(await steps.advance({ id: sessionId, fromVersion: 1, state: next, stage: 'presign/1' }))) stepConflict();
    return { session_id: sessionId, msg: result.outgoing, done: false };
  }

  async function step(caller: Caller, sessionId: string, msg: unknown): Promise<PresignStepResponse> {
    const live = await claimStep<PresignState>(deps, 'PRESIGN', 'presign', caller.userId, sessionId, msg);
    let result;
    try {
      result = presignServerStep(live.state, msg);
    } catch (error) {
      return abortOnProtocolError(deps.sessionsRepo, sessionId, caller.userId, 'presign/2', error);
    }
    if (!result.done) throw new AppError('INVALID_PROTOCOL_MESSAGE', 'presign/2 refused: the protocol should have ended');

    const presignatures: Presignature[] = result.output;
    const rows = presignatures.map((p) => {
      const id = randomUUID();
      const sealed = sealJsonValue(cipher, p, presignatureAad(id, live.walletId));
      return { id, index: p.index, material: sealed.ciphertext, keyId: sealed.keyId };
    });
    await completeIntoPool(
      deps,
      { sessionId, userId: caller.userId, fromVersion: live.stateVersion, stage: 'presign/2', state: { v: 1, next_step: 3, count: rows.length } },
      {
        lockAndCheckCap: (tx) => repo.lockAndCheckCap(tx, live.walletId, rows.length, config.poolMax),
        insert: (tx) => repo.insert(tx, live.walletId, rows),
        full: () => poolFull(config.poolMax),
      },
    );
    const ids = [...rows].sort((a, b) => a.index - b.index).map((r) => r.id);
    return { session_id: sessionId, msg: result.outgoing ?? null, done: true, presignature_ids: ids };
  }

  return {
    step(caller: Caller, body: StepRequest): Promise<PresignStepResponse> {
      return body.session_id ? step(caller, body.session_id, body.msg) : start(caller, body.msg);
    },
  };
}

export type EcdsaPresignService = ReturnType<typeof ecdsaPresignService>;
