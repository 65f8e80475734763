import { AppError } from '@svc/envelope';
import type { CommitRepo } from './repo.js';

/**
 * /commit/v1/id-token: the client binds its ID token's commit key (SHA-256 of the token's
 * canonical form, idTokenCommitKey of @svc/keyshare-client) to a fresh session key before it
 * shows the token to anyone. First commit wins: a later commit of the same key with another
 * session key is refused, so whoever sees the token afterwards (the main server included)
 * cannot re-bind it to a key of its own, in this spelling or any other (every spelling of one
 * token has one commit key). The same commit again is accepted (a client retry). The node
 * never sees the token here, only the key: it cannot check it, and need not, since signed
 * requests look commits up by the key they compute from the token they carry.
 */
export class CommitService {
  constructor(
    private readonly repo: CommitRepo,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async commit(commitKey: string, sessionPublicKey: string): Promise<{ committed: true; expires_at: string }> {
    const now = this.clock();
    // Expired commits are removed first so that their key can be committed again.
    await this.repo.purgeExpired(new Date(now));
    const expiresAt = new Date(now + this.ttlMs);
    const outcome = await this.repo.commit(commitKey, sessionPublicKey, expiresAt);
    if (outcome === 'other_key') {
      throw new AppError('ID_TOKEN_COMMITTED_TO_OTHER_KEY', 'This ID token is already committed to another session key');
    }
    return { committed: true, expires_at: expiresAt.toISOString() };
  }
}
