import type { TssSessionKind } from '@svc/db';
import type { ShareCipher } from '@svc/share-cipher';
import type { SessionsService } from '../sessions/service.js';
import { openState } from './sealed-material.js';
import { refuseEarlierStep, stepConflict } from './step-errors.js';
import type { LiveStepSession, StepSessionRepo } from './step-session-repo.js';

/**
 * The start of every later step of triples and presign: the caller's live session of that kind
 * (else the precise reason: 404, 409 or 410), a replay refused before the protocol sees it,
 * and the server's protocol state unsealed.
 */
export async function resumeStep<S>(
  deps: { steps: StepSessionRepo; sessions: SessionsService; cipher: ShareCipher },
  kind: TssSessionKind,
  prefix: string,
  userId: string,
  sessionId: string,
  msg: unknown,
): Promise<{ live: LiveStepSession; state: S }> {
  const live = await deps.steps.live(sessionId, userId, kind);
  if (!live) return deps.sessions.explainUnavailable(sessionId, userId, kind);
  if (!live.state.protocol) stepConflict();
  refuseEarlierStep(msg, prefix, live.state.next_step);
  return { live, state: openState<S>(deps.cipher, sessionId, live.state.protocol) };
}
