import type { PrismaClient } from './generated/prisma/client.js';

export interface RateLimitCount {
  totalHits: number;
  resetTime: Date | undefined;
}

/**
 * Fixed-window counters of one rate limit in PostgreSQL (table rate_limit_counters), so that
 * every replica counts against one limit. The shape is express-rate-limit's `Store` (its
 * `init` hands over the window). Each request is one atomic upsert: a row past its window
 * starts a new one, else its count goes up by one; concurrent requests on any replica
 * serialise on the row.
 */
export function rateLimitStore(db: PrismaClient, name: string) {
  let windowMs = 60_000;
  const keyOf = (key: string) => `${name}:${key}`;
  return {
    /** Counts are shared: express-rate-limit must not assume it sees every request. */
    localKeys: false,
    prefix: `${name}:`,
    init(options: { windowMs: number }) {
      windowMs = options.windowMs;
    },
    async increment(key: string): Promise<RateLimitCount> {
      const rows = await db.$queryRaw<{ hits: number; reset_at: Date }[]>`
        INSERT INTO rate_limit_counters AS c (key, hits, reset_at)
        VALUES (${keyOf(key)}, 1, now() + ${windowMs}::float8 * interval '1 millisecond')
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN c.reset_at <= now() THEN 1 ELSE c.hits + 1 END,
          reset_at = CASE WHEN c.reset_at <= now() THEN EXCLUDED.reset_at ELSE c.reset_at END
        RETURNING hits, reset_at`;
      const row = rows[0]!;
      return { totalHits: row.hits, resetTime: row.reset_at };
    },
    async get(key: string): Promise<RateLimitCount | undefined> {
      const rows = await db.$queryRaw<{ hits: number; reset_at: Date }[]>`
        SELECT hits, reset_at FROM rate_limit_counters WHERE key = ${keyOf(key)} AND reset_at > now()`;
      const row = rows[0];
      return row ? { totalHits: row.hits, resetTime: row.reset_at } : undefined;
    },
    async decrement(key: string): Promise<void> {
      await db.$executeRaw`UPDATE rate_limit_counters SET hits = hits - 1 WHERE key = ${keyOf(key)} AND hits > 0 AND reset_at > now()`;
    },
    async resetKey(key: string): Promise<void> {
      await db.$executeRaw`DELETE FROM rate_limit_counters WHERE key = ${keyOf(key)}`;
    },
  };
}

export type RateLimitStore = ReturnType<typeof rateLimitStore>;
