import { directSql, Prisma, type PrismaClient } from '@svc/db';

/**
 * TssSession.state of a SIGN_ECDSA session. `presignature` is the sealed pool material, kept
 * only when step 1 leaves the signature to step 2, and only until step 2 claims it.
 */
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
  /** The sealed presignature this request alone holds. */
  presignature: { key_id: string; material: string };
}

interface TakenRow {
  session_id: string;
  wallet_id: string;
  user_id: string;
  public_key: string;
  state: EcdsaSignState;
  key_id: string;
  material: string;
}

/*
 * Raw SQL on pg directly on purpose, as on the Ed25519 path: each online step is one
 * statement, because database round trips are most of the online latency.
 */
export function ecdsaSignRepo(db: PrismaClient) {
  const sql = directSql(db);
  return {
    /**
     * Step 1's single use, in one statement: lock the user's UNUSED presignature (the kill switch
     * on, the wallet the caller's), mark it CONSUMED by a new SIGN_ECDSA session and blank its
     * row, and record the step1 stage. The sealed material goes to this request only; with
     * `keepForStep2` (no client share yet) it is also put into the session's state, where step 2
     * claims it (sessions/claim.ts). Of 50 concurrent requests one gets the row; the others
     * wait on the lock, then see CONSUMED and get nothing. The material never returns to the pool.
     */
    async takePresignature(s: {
      presignatureId: string;
      userId: string;
      sessionId: string;
      msgHash: string;
      expiresAt: Date;
      customerId: string | null;
      apiKeyId: string | null;
      keepForStep2: boolean;
    }): Promise<TakenPresignature | null> {
      const rows = await sql.rows<TakenRow>(Prisma.sql`
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
                 jsonb_build_object('v', 1, 'msg_hash', ${s.msgHash}::text, 'presignature_id', old.id::text)
                 || CASE WHEN ${s.keepForStep2} THEN jsonb_build_object('presignature',
                      jsonb_build_object('key_id', old.material_key_id, 'material', encode(old.material, 'base64'))) ELSE '{}'::jsonb END,
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
        SELECT sess.id::text AS session_id, old.wallet_id::text AS wallet_id, ${s.userId}::text AS user_id, w.public_key, sess.state,
               old.material_key_id AS key_id, encode(old.material, 'base64') AS material
        FROM sess, old, upd, w`);
      const row = rows[0];
      return row
        ? {
            sessionId: row.session_id,
            walletId: row.wallet_id,
            userId: row.user_id,
            publicKey: row.public_key,
            state: row.state,
            presignature: { key_id: row.key_id, material: row.material },
          }
        : null;
    },

    /** After the signature verified: ACTIVE -> COMPLETED (material gone from the state), stage and audit row, once. */
    async complete(s: { sessionId: string; walletId: string; msgHash: string; stage: string }): Promise<boolean> {
      const rows = await sql.rows<{ id: string }>(Prisma.sql`
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
        SELECT id::text FROM upd`);
      return rows.length === 1;
    },

  };
}

export type EcdsaSignRepo = ReturnType<typeof ecdsaSignRepo>;
