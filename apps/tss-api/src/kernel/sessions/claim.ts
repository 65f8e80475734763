import { directSql, Prisma, type PrismaClient, type TssSessionKind } from '@svc/db';

/**
 * Claim, then compute (docs/architecture.md, invariant 8; the attack it stops: docs/crypto/ecdsa.md):
 * the one way a protocol step takes the secret state a session keeps between requests.
 *
 * One statement locks the caller's live session, REMOVES the secret from the row, bumps
 * state_version and returns the state as it was. Only then may the step compute on it. Of any
 * number of concurrent requests for the same session, on any number of replicas, exactly one
 * gets the secret; the others wait on the row lock, find the secret gone and get nothing, having
 * computed nothing. A step that fails its checks ends the session ABORTED (the secret is
 * already gone from the row, so it is never evaluated twice); one that passes writes its next
 * state back with a compare-and-swap on the version returned here. A process that dies holding
 * a claim leaves an ACTIVE session without a secret: no later step can use it, and the expiry
 * sweeper ends it.
 *
 * Why this matters: a step whose outcome depends on a secret (the KOS check on the server's OT
 * extension secret Δ at triples/2, say) answers one bit about that secret. Evaluated once per
 * stored state, that bit is worthless; evaluated on copies of the same state — replicas that
 * each loaded it before one of them wrote the next — it is an oracle that recovered Δ and, from
 * it, the wallet's key.
 */

/** The key under TssSession.state that holds the sealed secret of each kind of session. */
export type SecretKey = 'protocol' | 'presignature' | 'nonces';

export interface ClaimRequest {
  sessionId: string;
  userId: string;
  kind: TssSessionKind;
  secret: SecretKey;
  /**
   * Multi-step protocols: the step number the client's message names. A session whose next step
   * is past it is not claimed (a replay or the loser of a race: 409 with nothing computed).
   */
  stepAtMost?: number;
  /** Single-step use (Ed25519 round 2): the claim also completes the session and records this stage. */
  completeWithStage?: string;
  /** With completeWithStage: the signature audit row written in the same statement. */
  auditCurve?: 'ed25519';
}

export interface ClaimedSession<S> {
  sessionId: string;
  userId: string;
  walletId: string;
  /** state_version after the claim: the compare-and-swap key of the step's write-back. */
  stateVersion: number;
  /** The state as it was before the claim, secret included. */
  state: S;
  wallet: { publicKey: string; share: { keyId: string; ciphertext: Uint8Array } };
}

interface ClaimedRow {
  session_id: string;
  user_id: string;
  wallet_id: string;
  state_version: number;
  state: unknown;
  public_key: string;
  server_share_ciphertext: Uint8Array;
  server_share_key_id: string;
}

export function claimSessionState(db: PrismaClient) {
  // On pg directly: every step of every protocol runs this statement (@svc/db directSql).
  const sql = directSql(db);
  return async function claim<S>(c: ClaimRequest): Promise<ClaimedSession<S> | null> {
    const stepCond = c.stepAtMost === undefined ? Prisma.empty : Prisma.sql`AND (state->>'next_step')::int <= ${c.stepAtMost}`;
    // A claim that completes leaves nothing to resume; one that does not marks when it was taken.
    const completion = c.completeWithStage
      ? Prisma.sql`state = t.state - ${c.secret}::text, status = 'COMPLETED', completed_at = now()`
      : Prisma.sql`state = (t.state - ${c.secret}::text) || jsonb_build_object('claimed_at', now())`;
    const stage = c.completeWithStage
      ? Prisma.sql`, stage AS (
          INSERT INTO tss_stages (id, session_id, name, status, completed_at, updated_at)
          SELECT gen_random_uuid(), id, ${c.completeWithStage}, 'COMPLETED', now(), now() FROM upd)`
      : Prisma.empty;
    const audit = c.completeWithStage && c.auditCurve
      ? Prisma.sql`, audit AS (
          INSERT INTO signature_audit_logs (id, wallet_id, session_id, curve, message_hash)
          SELECT gen_random_uuid(), old.wallet_id, old.id, ${c.auditCurve}::curve, old.state->>'msg_hash' FROM upd JOIN old ON old.id = upd.id)`
      : Prisma.empty;
    const rows = await sql.rows<ClaimedRow>(Prisma.sql`
      WITH old AS (
        SELECT id, user_id, wallet_id, state FROM tss_sessions
        WHERE id = ${c.sessionId}::uuid AND user_id = ${c.userId}::uuid AND kind = ${c.kind}::tss_session_kind
          AND status = 'ACTIVE' AND expires_at > now() AND state ? ${c.secret}::text ${stepCond}
        FOR UPDATE
      ), upd AS (
        UPDATE tss_sessions t
        SET ${completion}, state_version = t.state_version + 1, updated_at = now()
        FROM old WHERE t.id = old.id AND t.status = 'ACTIVE' AND t.state ? ${c.secret}::text
        RETURNING t.id, t.state_version
      ) ${stage} ${audit}
      SELECT old.id::text AS session_id, old.user_id::text AS user_id, old.wallet_id::text AS wallet_id, upd.state_version, old.state,
             w.public_key, w.server_share_ciphertext, w.server_share_key_id
      FROM old JOIN upd ON upd.id = old.id JOIN wallets w ON w.id = old.wallet_id`);
    const row = rows[0];
    if (!row) return null;
    return {
      sessionId: row.session_id,
      userId: row.user_id,
      walletId: row.wallet_id,
      stateVersion: row.state_version,
      state: row.state as S,
      wallet: { publicKey: row.public_key, share: { keyId: row.server_share_key_id, ciphertext: row.server_share_ciphertext } },
    };
  };
}

export type ClaimSessionState = ReturnType<typeof claimSessionState>;
