import { AppError } from '@svc/envelope';
import type { SessionsRepo } from '../sessions/repo.js';
import { stepConflict } from './step-errors.js';
import type { StepSessionRepo, StepSessionState, Tx } from './step-session-repo.js';

/**
 * The last step of triples and presign: in one transaction, the pool cap is checked under the
 * wallet lock, the session completes by compare-and-swap, and the server's sealed outputs go
 * into its pool. A lost race is 409; a pool that other batches filled meanwhile, or rows
 * the pool refuses (an AppError of `insert`), end the session ABORTED with nothing stored.
 */
export async function completeIntoPool(
  deps: { steps: StepSessionRepo; sessionsRepo: SessionsRepo },
  run: { sessionId: string; userId: string; fromVersion: number; stage: string; state: StepSessionState },
  pool: { lockAndCheckCap(tx: Tx): Promise<boolean>; insert(tx: Tx): Promise<void>; full(): AppError },
): Promise<void> {
  const outcome = await deps.steps
    .transaction(async (tx) => {
      if (!(await pool.lockAndCheckCap(tx))) return 'full' as const;
      if (!(await deps.steps.advance({ id: run.sessionId, fromVersion: run.fromVersion, state: run.state, stage: run.stage, status: 'COMPLETED' }, tx))) {
        return 'conflict' as const;
      }
      await pool.insert(tx);
      return 'stored' as const;
    })
    .catch(async (error: unknown) => {
      if (error instanceof AppError) await deps.sessionsRepo.end(run.sessionId, run.userId, 'ABORTED', 'pool_insert_refused');
      throw error;
    });
  if (outcome === 'conflict') stepConflict();
  if (outcome === 'full') {
    await deps.sessionsRepo.end(run.sessionId, run.userId, 'ABORTED', 'pool_full');
    throw pool.full();
  }
}
