import type { TssSessionKind } from '@svc/db';
import type { ShareCipher } from '@svc/share-cipher';
import type { ClaimSessionState } from '../sessions/claim.js';
import type { SessionsService } from '../sessions/service.js';
import { openState } from './sealed-material.js';
import type { StepSessionState } from './step-session-repo.js';

export interface ClaimedStep<S> {
  sessionId: string;
  walletId: string;
  /** The step this request answers (the session's next_step when it was claimed). */
  stepNo: number;
  /** state_version after the claim: the compare-and-swap key of the write-back. */
  stateVersion: number;
  /** The server's protocol state, unsealed. The row no longer holds it. */
  state: S;
}

/** Steps are numbered from 1 and a protocol has a handful; the bound keeps n inside SQL's int. */
const MAX_STEP = 64;

/**
 * `<prefix>/<n>` -> n for 1 <= n <= MAX_STEP; anything else -> undefined (the protocol's checks
 * refuse it after the claim). Unbounded, "triples/99999999999" or "triples/1e300" reached the
 * claim's `::int` comparison and PostgreSQL refused the parameter: a 500.
 */
function namedStep(msg: unknown, prefix: string): number | undefined {
  const type = (msg as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !type.startsWith(`${prefix}/`)) return undefined;
  const n = Number(type.slice(prefix.length + 1));
  return Number.isInteger(n) && n >= 1 && n <= MAX_STEP ? n : undefined;
}

/**
 * The start of every later step of triples and presign: claim the caller's live session's sealed
 * protocol state (kernel/sessions/claim.ts) before anything is computed, then unseal it. No claim: the
 * precise reason (404, 409 or 410), nothing computed. A message of an earlier step than the
 * session expects (a replay, or the loser of a race another replica answered) claims nothing,
 * so it neither aborts the session nor gets a second answer.
 */
export async function claimStep<S>(
  deps: { claim: ClaimSessionState; sessions: SessionsService; cipher: ShareCipher },
  kind: TssSessionKind,
  prefix: string,
  userId: string,
  sessionId: string,
  msg: unknown,
): Promise<ClaimedStep<S>> {
  const stepAtMost = namedStep(msg, prefix);
  const claimed = await deps.claim<StepSessionState>({ sessionId, userId, kind, secret: 'protocol', ...(stepAtMost !== undefined ? { stepAtMost } : {}) });
  if (!claimed) return deps.sessions.explainUnavailable(sessionId, userId, kind);
  // The id as the database spells it (the claim matched the caller's through ::uuid): the one
  // the state was sealed under.
  return {
    sessionId: claimed.sessionId,
    walletId: claimed.walletId,
    stepNo: claimed.state.next_step,
    stateVersion: claimed.stateVersion,
    state: openState<S>(deps.cipher, claimed.sessionId, claimed.state.protocol!),
  };
}
