import { CryptoError } from '@svc/crypto';
import { AppError } from '@svc/envelope';
import type { SessionsRepo } from '../sessions/repo.js';

/** The step request of /tss/v1/triples and /tss/v1/presign: the crypto package's wire message. */
export interface StepRequest {
  session_id?: string | null;
  msg: unknown;
}

/**
 * A protocol message failed a check: the session ends ABORTED with its state erased (the claim
 * already took the sealed protocol state out of the row, so no request can evaluate it again),
 * and the client gets a clear 400. Anything already consumed for it (triples, a presignature)
 * stays consumed: nothing is reusable.
 */
export async function abortOnProtocolError(sessions: SessionsRepo, sessionId: string | null, userId: string, what: string, error: unknown): Promise<never> {
  if (!(error instanceof CryptoError)) throw error;
  if (sessionId) await sessions.end(sessionId, userId, 'ABORTED', `aborted:${error.code}`);
  throw new AppError('INVALID_PROTOCOL_MESSAGE', `${what} refused: ${error.message}`);
}

export function stepConflict(): never {
  throw new AppError('SESSION_STATE_CONSUMED', 'Session step already taken');
}
