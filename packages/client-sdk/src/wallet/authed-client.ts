import { SvcError, isSvcError } from '../errors.js';
import { call } from '../http/call.js';
import type { HttpClient } from '../http/http-client.js';
import { readJwtClaims } from './jwt-claims.js';
import { tssApi } from '@svc/contract/client';
import type { SignInResult } from '@svc/contract';

export interface AuthedClientOptions {
  /** Refresh this many seconds before the JWT's exp (default 60). */
  refreshMarginSeconds?: number;
  /** Called with every new sign-in result (initial and refreshed), e.g. to persist the token. */
  onToken?: (result: SignInResult) => void;
  /**
   * The server refused the token after the refresh attempt (expired past the refresh window,
   * signed out elsewhere, revoked): called once per session, with the SESSION_EXPIRED error
   * every call of this session then fails with.
   */
  onSessionExpired?: (err: SvcError) => void;
  /**
   * Another holder of the same session (a second tab over the same storage) may have refreshed
   * the token, which revokes the one this client holds. Asked when the server refuses `used`,
   * before the session is declared expired: a sign-in result it returns is adopted instead.
   */
  adopt?: (used: string) => Promise<SignInResult | undefined>;
  now?: () => number;
}

/**
 * Calls with the service JWT, kept fresh: signin_silently shortly before exp, and one
 * transparent retry when the server still answers 401 (clock skew, a token revoked by
 * rotation). Concurrent callers share one refresh. The server revokes the old token when it
 * issues the new one, so the old token is never refreshed twice; when someone else refreshed it
 * (another tab), `adopt` may hand over the token they got. A token the server still refuses
 * after that ends the session: SESSION_EXPIRED, and `onSessionExpired` once.
 */
export class AuthedClient {
  private token: string | undefined;
  /** The last session ended with SESSION_EXPIRED (not with a sign-out). */
  private expired = false;
  private refreshing: Promise<SignInResult> | undefined;
  private readonly marginMs: number;
  private readonly now: () => number;

  constructor(
    private readonly http: HttpClient,
    private readonly options: AuthedClientOptions = {},
  ) {
    this.marginMs = (options.refreshMarginSeconds ?? 60) * 1000;
    this.now = options.now ?? (() => Date.now());
  }

  get signedIn(): boolean {
    return this.token !== undefined;
  }

  /** The current JWT (e.g. for the app to keep across reloads and pass to `resume`). */
  get jwt(): string | undefined {
    return this.token;
  }

  setToken(result: SignInResult): void {
    this.token = result.token;
    this.expired = false;
    this.options.onToken?.(result);
  }

  /** A stored JWT, e.g. from a previous page load; refresh() turns it into a sign-in result. */
  setJwt(token: string): void {
    this.token = token;
    this.expired = false;
  }

  clear(): void {
    this.token = undefined;
    this.expired = false;
  }

  /**
   * signin_silently now: a valid or recently expired JWT gets a fresh one. Concurrent callers
   * share one request: the server refreshes a token once (it revokes the old one).
   */
  refresh(): Promise<SignInResult> {
    this.refreshing ??= (async () => {
      const used = this.requireToken();
      try {
        // No app signal here: concurrent callers share this request, one caller's abort must not end it for the others.
        const result = await call(this.http, tssApi.userSigninSilently, undefined, { bearer: used });
        this.setToken(result);
        return result;
      } catch (err) {
        if (!isSvcError(err, 'UNAUTHORIZED')) throw err;
        const adopted = await this.options.adopt?.(used).catch(() => undefined);
        if (!adopted) throw this.expire(used, err);
        this.setToken(adopted);
        return adopted;
      }
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  async post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    if (this.expiresSoon()) await this.refresh();
    const used = this.requireToken();
    try {
      return await this.http.post<T>(path, body, { bearer: used, ...(signal ? { signal } : {}) });
    } catch (err) {
      // The guard refused the token before the handler ran, so repeating the call is safe.
      if (!isSvcError(err, 'UNAUTHORIZED')) throw err;
      // A refresh revokes the token it replaces: when another call refreshed meanwhile, this one
      // only sent the old token and retries with the new one (refreshing again would revoke that).
      if (this.token === used) await this.refresh();
      const fresh = this.requireToken();
      try {
        return await this.http.post<T>(path, body, { bearer: fresh, ...(signal ? { signal } : {}) });
      } catch (retryErr) {
        throw isSvcError(retryErr, 'UNAUTHORIZED') ? this.expire(fresh, retryErr) : retryErr;
      }
    }
  }

  /**
   * The server refused `used` for good: the session ends. Only the call that finds `used` still
   * current ends it and calls the hook, so concurrent failures report it once.
   */
  private expire(used: string, cause: unknown): SvcError {
    const error = new SvcError('SESSION_EXPIRED', 'the session expired or was revoked: sign in again', 0, { cause });
    if (this.token === used) {
      this.token = undefined;
      this.expired = true;
      this.options.onSessionExpired?.(error);
    }
    return error;
  }

  private expiresSoon(): boolean {
    const exp = this.token ? readJwtClaims(this.token).exp : undefined;
    return exp !== undefined && exp * 1000 - this.now() < this.marginMs;
  }

  private requireToken(): string {
    if (!this.token) {
      throw this.expired ? new SvcError('SESSION_EXPIRED', 'the session expired or was revoked: sign in again') : new SvcError('NOT_SIGNED_IN', 'sign in first');
    }
    return this.token;
  }
}
