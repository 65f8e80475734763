import { AppError } from '@svc/envelope';
import type { TssSessionKind } from '@svc/db';
import type { SessionsRepo } from './repo.js';

/**
 * Session lifecycle shared by every protocol: why a step found no live session, and abort.
 * Another user's session is reported as not found, so ids cannot be probed.
 */
export function sessionsService(repo: SessionsRepo) {
  return {
    /** Called when a step's claim (kernel/sessions/claim.ts) took nothing: throws the precise error. */
    async explainUnavailable(sessionId: string, userId: string, kind: TssSessionKind): Promise<never> {
      const head = await repo.head(sessionId);
      if (!head || head.userId !== userId || head.kind !== kind) throw new AppError('SESSION_NOT_FOUND', 'Session not found');
      if (head.status === 'ACTIVE' && head.expiresAt.getTime() <= Date.now()) {
        await repo.end(sessionId, userId, 'EXPIRED', 'expired');
        throw new AppError('SESSION_EXPIRED', 'Session expired');
      }
      if (head.status === 'EXPIRED') throw new AppError('SESSION_EXPIRED', 'Session expired');
      // Live but nothing to claim: another request holds or took this step's state.
      if (head.status === 'ACTIVE') throw new AppError('SESSION_STATE_CONSUMED', 'Session already used');
      if (head.status === 'COMPLETED') throw new AppError('SESSION_STATE_CONSUMED', 'Session already used');
      throw new AppError('SESSION_NOT_ACTIVE', 'Session is not active');
    },

    /** The kind of the caller's session; null for an unknown one or another user's, alike. */
    async kindOf(sessionId: string, userId: string): Promise<TssSessionKind | null> {
      const head = await repo.head(sessionId);
      return head?.userId === userId ? head.kind : null;
    },

    async abort(sessionId: string, userId: string): Promise<{ session_id: string }> {
      if (await repo.end(sessionId, userId, 'ABORTED', 'abort')) return { session_id: sessionId };
      const head = await repo.head(sessionId);
      if (!head || head.userId !== userId) throw new AppError('SESSION_NOT_FOUND', 'Session not found');
      throw new AppError('SESSION_NOT_ACTIVE', 'Session is not active');
    },
  };
}

export type SessionsService = ReturnType<typeof sessionsService>;
