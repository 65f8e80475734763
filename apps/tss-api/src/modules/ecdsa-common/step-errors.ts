import { CryptoError } from '@svc/crypto';
import { AppError } from '@svc/envelope';
import type { SessionsRepo } from '../sessions/repo.js';

/** The step request of /tss/v1/triples and /tss/v1/presign: the crypto package's wire message. */
export interface StepRequest {
  session_id?: string | null;
  msg: unknown;
}

/**
 * A protocol message failed a check: the session ends ABORTED with its state erased (the crypto
 * state was already rewritten to "aborted" in memory), and the client gets a clear 400. Anything
 * already consumed for it (triples, a presignature) stays consumed: nothing is reusable.
 */
export async function abortOnProtocolError(sessions: SessionsRepo, sessionId: string | null, userId: string, what: string, error: unknown): Promise<never> {
  if (!(error instanceof CryptoError)) throw error;
  if (sessionId) await sessions.end(sessionId, userId, 'ABORTED', `aborted:${error.code}`);
  throw new AppError('INVALID_PROTOCOL_MESSAGE', `${what} refused: ${error.message}`);
}

export function stepConflict(): never {
  throw new AppError('SESSION_STATE_CONSUMED', 'Session step already taken');
}

/**
 * A message of an earlier step than the session expects (`<prefix>/<n>` with n < next): a
 * replay, or the loser of a race that another replica already answered. Refused with 409
 * before the protocol sees it, so a replay neither aborts the session nor gets a second answer.
 * Anything else goes to the protocol, whose checks decide.
 */
export function refuseEarlierStep(msg: unknown, prefix: string, next: number): void {
  const type = (msg as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !type.startsWith(`${prefix}/`)) return;
  const n = Number(type.slice(prefix.length + 1));
  if (Number.isInteger(n) && n < next) stepConflict();
}
