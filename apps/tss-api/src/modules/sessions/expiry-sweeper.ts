import type { Logger } from '@svc/http';
import type { SessionsRepo } from './repo.js';

export interface ExpirySweeper {
  /** One pass: every stale session, in batches. Returns how many were ended. */
  sweep(): Promise<number>;
  stop(): void;
}

/**
 * Sessions are ended as EXPIRED when a request touches them after their TTL; one nobody touches
 * again (an abandoned signing, a step1 without step2) would keep its sealed secrets in the row
 * for ever. This sweeps them every `intervalMs` on every replica (the statement is safe to run
 * concurrently). The timer does not keep the process alive.
 */
export function startExpirySweeper(repo: SessionsRepo, logger: Logger, options: { intervalMs: number; batch?: number }): ExpirySweeper {
  const batch = options.batch ?? 500;
  let running: Promise<number> | undefined;
  const sweep = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const n = await repo.expireStale(batch);
      total += n;
      if (n < batch) return total;
    }
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
