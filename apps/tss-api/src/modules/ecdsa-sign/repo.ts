import type { PrismaClient } from '@svc/db';

/** TssSession.state of a SIGN_ECDSA session. `presignature` is the sealed pool material, present only until step 2 takes it. */
export interface EcdsaSignState {
  v: 1;
  /** The 32-byte message hash, hex. */
  msg_hash: string;
  presignature_id: string;
  presignature?: { key_id: string; material: string };
}

export interface TakenPresignature {
  sessionId: string;
  walletId: string;
  userId: string;
  publicKey: string;
  state: EcdsaSignState;
}

interface TakenRow {
  session_id: string;
  wallet_id: string;
  user_id: string;
  public_key: string;
  state: EcdsaSignState;
}

/*
 * Raw SQL on purpose, as on the Ed25519 path: each online step is one statement, because
 * database round trips are most of the online latency.
 */
export function ecdsaSignRepo(db: PrismaClient) {
  return {
    /**
     * Step 1's single use, in one statement: lock the user's UNUSED presignature (the kill switch
     * on, the wallet the caller's), mark it CONSUMED by a new SIGN_ECDSA session and blank its
     * row, moving the sealed material into that session's state, and record the step1 stage.
     * Of 50 concurrent requests one gets the row; the others wait on the lock, then see
     * CONSUMED and get nothing. The material never returns to the pool.
     */
    async takePresignature(s: {
      presignatureId: string;
      userId: string;
      sessionId: string;
      msgHash: string;
      expiresAt: Date;
      customerId: string | null;
      apiKeyId: string | null;
    }): Promise<TakenPresignature | null> {
      const rows = await db.$queryRaw<TakenRow[]>`
        WITH w AS (
          SELECT id, public_key FROM wallets
          WHERE user_id = ${s.userId}::uuid AND curve = 'secp256k1'::curve
            AND COALESCE((SELECT signing_enabled FROM tss_activation_settings WHERE id = 1), true)
        ), old AS (
          SELECT p.id, p.wallet_id, p.material, p.material_key_id FROM presignature_pool p
          WHERE p.id = ${s.presignatureId}::uuid AND p.wallet_id = (SELECT id FROM w) AND p.status = 'UNUSED'
          FOR UPDATE
        ), sess AS (
          INSERT INTO tss_sessions (id, user_id, wallet_id, kind, status, state, state_version, expires_at, customer_id, api_key_id, updated_at)
          SELECT ${s.sessionId}::uuid, ${s.userId}::uuid, old.wallet_id, 'SIGN_ECDSA', 'ACTIVE',
                 jsonb_build_object('v', 1, 'msg_hash', ${s.msgHash}::text, 'presignature_id', old.id::text,
                   'presignature', jsonb_build_object('key_id', old.material_key_id, 'material', encode(old.material, 'base64'))),
                 1, ${s.expiresAt}, ${s.customerId}::uuid, ${s.apiKeyId}::uuid, now()
          FROM old
          RETURNING id, state
        ), upd AS (
          UPDATE presignature_pool t
          SET status = 'CONSUMED', consumed_at = now(), consumed_by_session_id = ${s.sessionId}::uuid, material = ''::bytea
          FROM old WHERE t.id = old.id AND t.status = 'UNUSED'
          RETURNING t.id
        ), stage AS (
          INSERT INTO tss_stages (id, session_id, name, status, completed_at, updated_at)
          SELECT gen_random_uuid(), id, 'step1', 'COMPLETED', now(), now() FROM sess
        )
        SELECT sess.id::text AS session_id, old.wallet_id::text AS wallet_id, ${s.userId}::text AS user_id, w.public_key, sess.state
        FROM sess, old, upd, w`;
      const row = rows[0];
      return row ? { sessionId: row.session_id, walletId: row.wallet_id, userId: row.user_id, publicKey: row.public_key, state: row.state } : null;
    },

    /**
     * Step 2's single use: takes the sealed presignature out of the user's live session in one
     * statement (a replay or a concurrent duplicate finds no `presignature` key and gets nothing).
     */
    async takeFromSession(sessionId: string, userId: string): Promise<TakenPresignature | null> {
      const rows = await db.$queryRaw<TakenRow[]>`
        WITH old AS (
          SELECT id, wallet_id, user_id, state FROM tss_sessions
          WHERE id = ${sessionId}::uuid AND user_id = ${userId}::uuid AND kind = 'SIGN_ECDSA'
            AND status = 'ACTIVE' AND expires_at > now() AND state ? 'presignature'
          FOR UPDATE
        ), upd AS (
          UPDATE tss_sessions t SET state = t.state - 'presignature', state_version = t.state_version + 1, updated_at = now()
          FROM old WHERE t.id = old.id AND t.state ? 'presignature'
          RETURNING t.id
        )
        SELECT old.id::text AS session_id, old.wallet_id::text AS wallet_id, old.user_id::text AS user_id, w.public_key, old.state
        FROM old JOIN upd ON upd.id = old.id JOIN wallets w ON w.id = old.wallet_id`;
      const row = rows[0];
      return row ? { sessionId: row.session_id, walletId: row.wallet_id, userId: row.user_id, publicKey: row.public_key, state: row.state } : null;
    },

    /** After the signature verified: ACTIVE -> COMPLETED (material gone from the state), stage and audit row, once. */
    async complete(s: { sessionId: string; walletId: string; msgHash: string; stage: string }): Promise<boolean> {
      const rows = await db.$queryRaw<{ id: string }[]>`
        WITH upd AS (
          UPDATE tss_sessions SET status = 'COMPLETED', state = state - 'presignature', state_version = state_version + 1,
                 completed_at = now(), updated_at = now()
          WHERE id = ${s.sessionId}::uuid AND status = 'ACTIVE'
          RETURNING id
        ), stage AS (
          INSERT INTO tss_stages (id, session_id, name, status, completed_at, updated_at)
          SELECT gen_random_uuid(), id, ${s.stage}, 'COMPLETED', now(), now() FROM upd
        ), audit AS (
          INSERT INTO signature_audit_logs (id, wallet_id, session_id, curve, message_hash)
          SELECT gen_random_uuid(), ${s.walletId}::uuid, id, 'secp256k1', ${s.msgHash} FROM upd
        )
        SELECT id::text FROM upd`;
      return rows.length === 1;
    },

    /** Whether the user's session is live (then a step that found nothing lost a race: consumed). */
    async isLive(sessionId: string, userId: string): Promise<boolean> {
      const n = await db.tssSession.count({ where: { id: sessionId, userId, kind: 'SIGN_ECDSA', status: 'ACTIVE', expiresAt: { gt: new Date() } } });
      return n === 1;
    },
  };
}

export type EcdsaSignRepo = ReturnType<typeof ecdsaSignRepo>;
