import type { Logger } from '@svc/http';
import type { SessionsRepo } from '../../kernel/sessions/repo.js';

export interface ExpirySweeper {
  /** One pass: every stale session, in batches. Returns how many were ended. */
  sweep(): Promise<number>;
  stop(): void;
}

/**
 * A step holds a claim for as long as one computation and one write take (well under a second;
 * the database transaction timeout is 20 s). A claim this old belongs to a request that died.
 */
export const CLAIM_TIMEOUT_SECONDS = 60;

/**
 * Sessions are ended as EXPIRED when a request touches them after their TTL; one nobody touches
 * again (an abandoned signing, a step1 without step2) would keep its sealed secrets in the row
 * for ever. Sessions whose claim was never written back (the replica died mid-step) are ended
 * as ABORTED. This sweeps them every `intervalMs` on every replica (the statement is safe to run
 * concurrently). The timer does not keep the process alive.
 */
export function startExpirySweeper(
  repo: SessionsRepo,
  logger: Logger,
  options: { intervalMs: number; batch?: number; claimTimeoutSeconds?: number },
): ExpirySweeper {
  const batch = options.batch ?? 500;
  const claimTimeout = options.claimTimeoutSeconds ?? CLAIM_TIMEOUT_SECONDS;
  let running: Promise<number> | undefined;
  const sweep = async (): Promise<number> => {
    let total = 0;
    for (const pass of [() => repo.expireStale(batch), () => repo.abortAbandonedClaims(claimTimeout, batch)]) {
      for (;;) {
        const n = await pass();
        total += n;
        if (n < batch) break;
      }
    }
    return total;
  };
  const timer = setInterval(() => {
    running ??= sweep()
      .then((n) => {
        if (n > 0) logger.info('expired stale sessions', { count: n });
        return n;
      })
      .catch((error: unknown) => {
        logger.warn('session expiry sweep failed', { error: error instanceof Error ? error.message : String(error) });
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
  }, options.intervalMs);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
