import { Prisma, type PrismaClient, type TssSessionKind, type TssSessionStatus } from '@svc/db';

export interface SessionHead {
  userId: string;
  kind: TssSessionKind;
  status: TssSessionStatus;
  expiresAt: Date;
}

export function sessionsRepo(db: PrismaClient) {
  /**
   * The sweeper's statement: ends up to `limit` ACTIVE sessions matching `where` with their state
   * erased and the stage recorded. SKIP LOCKED: replicas sweeping at once share the work, and a
   * session a request holds right now is left to that request.
   */
  async function endStale(where: Prisma.Sql, status: 'EXPIRED' | 'ABORTED', stage: string, limit: number): Promise<number> {
    const rows = await db.$queryRaw<{ n: number }[]>`
      WITH stale AS (
        SELECT id FROM tss_sessions WHERE status = 'ACTIVE' AND ${where} LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ), ended AS (
        UPDATE tss_sessions t
        SET status = ${status}::tss_session_status, state = '{}'::jsonb, state_version = t.state_version + 1, completed_at = now(), updated_at = now()
        FROM stale WHERE t.id = stale.id
        RETURNING t.id
      ), staged AS (
        INSERT INTO tss_stages (id, session_id, name, status, completed_at, updated_at)
        SELECT gen_random_uuid(), id, ${stage}, 'COMPLETED', now(), now() FROM ended
        ON CONFLICT (session_id, name) DO NOTHING
      )
      SELECT count(*)::int AS n FROM ended`;
    return rows[0]?.n ?? 0;
  }

  return {
    head(id: string): Promise<SessionHead | null> {
      return db.tssSession.findUnique({ where: { id }, select: { userId: true, kind: true, status: true, expiresAt: true } });
    },

    /** ACTIVE -> `status`, erasing the whole state (it may hold sealed secrets), once. */
    async end(id: string, userId: string, status: 'ABORTED' | 'EXPIRED', stage: string): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const { count } = await tx.tssSession.updateMany({
          where: { id, userId, status: 'ACTIVE' },
          data: { status, state: {}, stateVersion: { increment: 1 }, completedAt: new Date() },
        });
        if (count === 1) {
          await tx.tssStage.upsert({
            where: { sessionId_name: { sessionId: id, name: stage } },
            create: { sessionId: id, name: stage, status: 'COMPLETED', completedAt: new Date() },
            update: {},
          });
        }
        return count === 1;
      });
    },

    /**
     * Ends up to `limit` ACTIVE sessions past their TTL as EXPIRED with their state erased (FROST
     * nonces, sealed protocol state, a presignature spent at step1), each with its `expired`
     * stage, in one statement.
     */
    expireStale(limit: number): Promise<number> {
      return endStale(Prisma.sql`expires_at <= now() ORDER BY expires_at`, 'EXPIRED', 'expired', limit);
    },

    /**
     * Ends as ABORTED up to `limit` ACTIVE sessions whose state was claimed (claim.ts)
     * more than `olderThanSeconds` ago and never written back: the request holding the claim
     * died. Their secret is already gone from the row; this frees the wallet's open-run place
     * and records why, instead of waiting for the TTL.
     */
    abortAbandonedClaims(olderThanSeconds: number, limit: number): Promise<number> {
      return endStale(
        Prisma.sql`state ? 'claimed_at' AND (state->>'claimed_at')::timestamptz < now() - ${olderThanSeconds}::float8 * interval '1 second'`,
        'ABORTED',
        'aborted:claim_abandoned',
        limit,
      );
    },
  };
}

export type SessionsRepo = ReturnType<typeof sessionsRepo>;
