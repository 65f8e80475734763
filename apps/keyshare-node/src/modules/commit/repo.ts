import type { NodeDb } from '../../kernel/database.js';

export type CommitOutcome = 'created' | 'same_key' | 'other_key';

/**
 * ID token commits. The commit key is the primary key (column `token_hash`): an insert that
 * conflicts leaves the first commit.
 *
 * Rows written before commits were keyed on the canonical form (docs/keyshare.md) hold SHA-256
 * of a raw token string. No migration rewrites or deletes them: they cannot be converted (the
 * node never saw the tokens), no lookup can hit one (a commit key hashes a text that starts with
 * "svc-id-token-commit-v1\n", which no raw token does, so they never collide), and each expires
 * within KS_COMMIT_TTL_SECONDS (default 24 h) of its commit, after which purgeExpired deletes it.
 * An updated client commits under the new key at its next sign-in. A client built before the
 * change keeps committing the old key, and every signed request of it is then 401
 * ID_TOKEN_NOT_COMMITTED: clients and nodes are updated together (docs/keyshare.md). No fallback
 * to the old key is possible: it is what let a re-spelled token pass.
 */
export class CommitRepo {
  constructor(private readonly db: NodeDb) {}

  async commit(commitKey: string, sessionPublicKey: string, expiresAt: Date): Promise<CommitOutcome> {
    const { count } = await this.db.idTokenCommit.createMany({ data: [{ tokenHash: commitKey, sessionPublicKey, expiresAt }], skipDuplicates: true });
    if (count === 1) return 'created';
    const existing = await this.findLive(commitKey, new Date(0));
    return existing === sessionPublicKey ? 'same_key' : 'other_key';
  }

  /** The session key committed under this commit key, unless the commit has expired. */
  async findLive(commitKey: string, now: Date): Promise<string | undefined> {
    const row = await this.db.idTokenCommit.findUnique({ where: { tokenHash: commitKey } });
    return row && row.expiresAt > now ? row.sessionPublicKey : undefined;
  }

  async purgeExpired(now: Date): Promise<number> {
    const { count } = await this.db.idTokenCommit.deleteMany({ where: { expiresAt: { lte: now } } });
    return count;
  }
}
