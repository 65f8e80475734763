import { randomUUID } from 'node:crypto';
import { tripleGenServerStart, tripleGenServerStep, type Triple, type TripleGenState } from '@svc/crypto/ecdsa';
import { AppError } from '@svc/envelope';
import type { ShareCipher } from '@svc/share-cipher';
import type { SessionsRepo } from '../../kernel/sessions/repo.js';
import type { SessionsService } from '../../kernel/sessions/service.js';
import type { Caller } from '../../kernel/caller.js';
import { sealJsonValue, sealState, tripleAad } from '../../kernel/ecdsa/sealed-material.js';
import { completeIntoPool } from '../../kernel/ecdsa/complete-into-pool.js';
import { claimStep } from '../../kernel/ecdsa/claim-step.js';
import type { ClaimSessionState } from '../../kernel/sessions/claim.js';
import { abortOnProtocolError, stepConflict, type StepRequest } from '../../kernel/ecdsa/step-errors.js';
import type { StepSessionRepo, StepSessionState } from '../../kernel/ecdsa/step-session-repo.js';
import { tripleRowId } from '../../kernel/ecdsa/triple-row-id.js';
import { usableWallet, type SigningWallet, type SigningWalletRepo } from '../../kernel/signing-wallet.js';
import type { EcdsaTriplesRepo } from './repo.js';

export interface TriplesConfig {
  /** Triples one run may generate (ECDSA_TRIPLE_BATCH_MAX; the crypto default is 64 ≈ 6.3 MB per message). */
  batchMax: number;
  /** Unused triples a wallet may hold (ECDSA_TRIPLE_POOL_MAX). */
  poolMax: number;
  sessionTtlSeconds: number;
  /** ACTIVE triples/presign runs a wallet may have open (TSS_OPEN_SESSIONS_MAX). */
  openSessionsMax: number;
}

export interface StepResponse {
  session_id: string;
  /** The server's outgoing wire message (triples/N-reply, presign/N-reply). */
  msg: object | null;
  /** True when the server finished: its outputs are in the pool. */
  done: boolean;
}

const STAGES = ['', 'triples/1', 'triples/2', 'triples/3'];

const poolFull = (max: number) => new AppError('PRESIGNATURE_POOL_FULL', `Triple pool is full (at most ${max} unused triples per wallet)`);

/**
 * Batched triple generation, server side (P1): three client messages, three answers. Each later
 * step first claims the sealed protocol state (taken out of the row in one statement, so no
 * other request on any replica can evaluate it: the KOS check at triples/2 depends on the
 * server's secret Δ), then computes, then writes the next state back with a compare-and-swap
 * before the answer leaves; the last step writes the server's triples to triple_pool (sealed)
 * in the same transaction that completes the session.
 */
export function ecdsaTriplesService(deps: {
  wallets: SigningWalletRepo;
  repo: EcdsaTriplesRepo;
  steps: StepSessionRepo;
  claim: ClaimSessionState;
  sessions: SessionsService;
  sessionsRepo: SessionsRepo;
  cipher: ShareCipher;
  config: TriplesConfig;
}) {
  const { repo, steps, cipher, config } = deps;

  async function wallet(userId: string): Promise<SigningWallet> {
    return usableWallet(await deps.wallets.secp256k1(userId));
  }

  async function start(caller: Caller, msg: unknown): Promise<StepResponse> {
    const w = await wallet(caller.userId);
    const requested = (msg as { count?: unknown } | null)?.count;
    // The cheap refusal first (for a count the protocol accepts: a bad one is its 400 below); the
    // final step enforces the cap again under a lock.
    const plausible = Number.isInteger(requested) && (requested as number) >= 1 && (requested as number) <= config.batchMax;
    if (plausible && (await repo.unusedCount(w.id)) + (requested as number) > config.poolMax) {
      throw poolFull(config.poolMax);
    }
    // Reserved within the wallet's cap of open runs before the 0.4-0.6 s of work below.
    const sessionId = randomUUID();
    await steps.transaction((tx) =>
      steps.create(
        {
          id: sessionId,
          userId: caller.userId,
          walletId: w.id,
          kind: 'TRIPLES',
          state: { v: 1, next_step: 1 },
          expiresAt: new Date(Date.now() + config.sessionTtlSeconds * 1000),
          customerId: caller.customerId,
          apiKeyId: caller.apiKeyId,
          openMax: config.openSessionsMax,
        },
        tx,
      ),
    );
    const state = tripleGenServerStart({ maxCount: config.batchMax });
    let result;
    try {
      result = tripleGenServerStep(state, msg);
    } catch (error) {
      return abortOnProtocolError(deps.sessionsRepo, sessionId, caller.userId, 'triples/1', error);
    }
    if (result.done) {
      await deps.sessionsRepo.end(sessionId, caller.userId, 'ABORTED', 'aborted:UNEXPECTED_END');
      throw new AppError('INVALID_PROTOCOL_MESSAGE', 'triples/1 refused: unexpected end of protocol');
    }
    const next: StepSessionState = { v: 1, next_step: 2, protocol: sealState(cipher, sessionId, result.state) };
    if (!(await steps.advance({ id: sessionId, fromVersion: 1, state: next, stage: STAGES[1]! }))) stepConflict();
    return { session_id: sessionId, msg: result.outgoing, done: false };
  }

  async function step(caller: Caller, sessionId: string, msg: unknown): Promise<StepResponse> {
    const live = await claimStep<TripleGenState>(deps, 'TRIPLES', 'triples', caller.userId, sessionId, msg);
    const stepNo = live.stepNo;
    let result;
    try {
      result = tripleGenServerStep(live.state, msg);
    } catch (error) {
      return abortOnProtocolError(deps.sessionsRepo, sessionId, caller.userId, STAGES[stepNo] ?? 'triples step', error);
    }
    if (!result.done) {
      const next: StepSessionState = { v: 1, next_step: stepNo + 1, protocol: sealState(cipher, sessionId, result.state) };
      if (!(await steps.advance({ id: sessionId, fromVersion: live.stateVersion, state: next, stage: STAGES[stepNo] ?? `triples/${stepNo}` }))) stepConflict();
      return { session_id: sessionId, msg: result.outgoing, done: false };
    }

    const triples: Triple[] = result.output;
    const rows = triples.map((t) => {
      const id = tripleRowId(live.walletId, t.session_id, t.index);
      const sealed = sealJsonValue(cipher, t, tripleAad(id, live.walletId));
      return { id, material: sealed.ciphertext, keyId: sealed.keyId };
    });
    await completeIntoPool(
      deps,
      { sessionId, userId: caller.userId, fromVersion: live.stateVersion, stage: STAGES[stepNo] ?? 'triples/3', state: { v: 1, next_step: stepNo + 1, count: rows.length } },
      {
        lockAndCheckCap: (tx) => repo.lockAndCheckCap(tx, live.walletId, rows.length, config.poolMax),
        insert: (tx) => repo.insert(tx, live.walletId, rows),
        full: () => poolFull(config.poolMax),
      },
    );
    return { session_id: sessionId, msg: result.outgoing ?? null, done: true };
  }

  return {
    step(caller: Caller, body: StepRequest): Promise<StepResponse> {
      return body.session_id ? step(caller, body.session_id, body.msg) : start(caller, body.msg);
    },
  };
}

export type EcdsaTriplesService = ReturnType<typeof ecdsaTriplesService>;
