import type { TssSessionsRepo } from './repo.js';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.js';

export function tssSessionsService(repo: TssSessionsRepo) {
  return {
    async list(limit: number, rawCursor: string | undefined) {
      const cursor = rawCursor === undefined ? undefined : decodeSessionCursor(rawCursor);
      // One extra row says whether another page exists without a count query.
      const rows = await repo.listAfter(cursor, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        sessions: page.map((s) => ({
          session_id: s.id,
          kind: s.kind,
          status: s.status,
          user_id: s.userId,
          wallet_id: s.walletId,
          customer_id: s.customerId,
          api_key_id: s.apiKeyId,
          state_version: s.stateVersion,
          expires_at: s.expiresAt.toISOString(),
          completed_at: s.completedAt?.toISOString() ?? null,
          created_at: s.createdAt.toISOString(),
          updated_at: s.updatedAt.toISOString(),
          stages: s.stages.map((st) => ({
            name: st.name,
            status: st.status,
            created_at: st.createdAt.toISOString(),
            completed_at: st.completedAt?.toISOString() ?? null,
          })),
        })),
        next_cursor: rows.length > limit && last ? encodeSessionCursor(last) : null,
      };
    },
  };
}

export type TssSessionsService = ReturnType<typeof tssSessionsService>;
