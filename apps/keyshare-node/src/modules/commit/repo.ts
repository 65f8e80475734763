import type { NodeDb } from '../../kernel/database.js';

export type CommitOutcome = 'created' | 'same_key' | 'other_key';

/** ID token commits. The hash is the primary key: an insert that conflicts leaves the first commit. */
export class CommitRepo {
  constructor(private readonly db: NodeDb) {}

  async commit(tokenHash: string, sessionPublicKey: string, expiresAt: Date): Promise<CommitOutcome> {
    const { count } = await this.db.idTokenCommit.createMany({ data: [{ tokenHash, sessionPublicKey, expiresAt }], skipDuplicates: true });
    if (count === 1) return 'created';
    const existing = await this.findLive(tokenHash, new Date(0));
    return existing === sessionPublicKey ? 'same_key' : 'other_key';
  }

  /** The session key committed for this hash, unless the commit has expired. */
  async findLive(tokenHash: string, now: Date): Promise<string | undefined> {
    const row = await this.db.idTokenCommit.findUnique({ where: { tokenHash } });
    return row && row.expiresAt > now ? row.sessionPublicKey : undefined;
  }

  async purgeExpired(now: Date): Promise<number> {
    const { count } = await this.db.idTokenCommit.deleteMany({ where: { expiresAt: { lte: now } } });
    return count;
  }
}
