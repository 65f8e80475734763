import type { SignInResult } from '@svc/contract';
import type { ShareStorage } from '../storage/share-storage.js';

/**
 * The session (service JWT + account) kept in the wallet's storage next to the shares, so a
 * reload restores it (SvcWallet.restore). Its storage key cannot collide with a share's
 * (`svc-wallet:<walletId>:<curve>`).
 */
export const SESSION_STORAGE_KEY = 'svc-wallet:session';

export interface StoredSession {
  v: 1;
  token: string;
  user: SignInResult['user'];
}

export function serialiseSession(result: SignInResult): string {
  const session: StoredSession = { v: 1, token: result.token, user: result.user };
  return JSON.stringify(session);
}

/** The stored session, or null when there is none or it is not readable (a sign-in replaces it). */
export async function readSession(storage: ShareStorage): Promise<StoredSession | null> {
  const value = await storage.get(SESSION_STORAGE_KEY);
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as Partial<StoredSession> | null;
    return parsed?.v === 1 && typeof parsed.token === 'string' && parsed.user ? (parsed as StoredSession) : null;
  } catch {
    return null;
  }
}

/**
 * Writes of the session in the order the tokens came: a token refreshed in the middle of a
 * flow is written in the background, and a flow (or sign-out) awaits `settled()` so a stale
 * write never lands after a newer one or after the sign-out that erased it.
 */
export class SessionWriter {
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: ShareStorage,
    private readonly onError: (err: unknown) => void,
  ) {}

  save(result: SignInResult): void {
    this.enqueue(() => this.storage.set(SESSION_STORAGE_KEY, serialiseSession(result)));
  }

  forget(): void {
    this.enqueue(() => this.storage.delete(SESSION_STORAGE_KEY));
  }

  /** Resolves once every write queued so far is done (a failed one went to onError). */
  settled(): Promise<void> {
    return this.last;
  }

  private enqueue(write: () => Promise<void>): void {
    this.last = this.last.then(write).catch(this.onError);
  }
}
