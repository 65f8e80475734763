import { AppError } from '@svc/envelope';
import type { CommitRepo } from './repo.js';

/**
 * /commit/v1/id-token: the client binds SHA-256(ID token) to a fresh session key before it
 * shows the token to anyone. First commit wins: a later commit of the same hash with another
 * key is refused, so whoever sees the token afterwards (the main server included) cannot
 * re-bind it to a key of its own. The same commit again is accepted (a client retry).
 */
export class CommitService {
  constructor(
    private readonly repo: CommitRepo,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async commit(tokenHash: string, sessionPublicKey: string): Promise<{ committed: true; expires_at: string }> {
    const now = this.clock();
    // Expired commits are removed first so that their hash can be committed again.
    await this.repo.purgeExpired(new Date(now));
    const expiresAt = new Date(now + this.ttlMs);
    const outcome = await this.repo.commit(tokenHash, sessionPublicKey, expiresAt);
    if (outcome === 'other_key') {
      throw new AppError('ID_TOKEN_COMMITTED_TO_OTHER_KEY', 'This ID token is already committed to another session key');
    }
    return { committed: true, expires_at: expiresAt.toISOString() };
  }
}
