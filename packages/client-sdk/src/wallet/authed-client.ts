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
  now?: () => number;
}

/**
 * Calls with the service JWT, kept fresh: signin_silently shortly before exp, and one
 * transparent retry when the server still answers 401 (clock skew, a token revoked by
 * rotation). Concurrent callers share one refresh. The server revokes the old token when it
 * issues the new one, so the old token is never refreshed twice.
 */
export class AuthedClient {
  private token: string | undefined;
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
    this.options.onToken?.(result);
  }

  /** A stored JWT, e.g. from a previous page load; refresh() turns it into a sign-in result. */
  setJwt(token: string): void {
    this.token = token;
  }

  clear(): void {
    this.token = undefined;
  }

  /**
   * signin_silently now: a valid or recently expired JWT gets a fresh one. Concurrent callers
   * share one request: the server refreshes a token once (it revokes the old one).
   */
  refresh(): Promise<SignInResult> {
    this.refreshing ??= (async () => {
      const result = await call(this.http, tssApi.userSigninSilently, undefined, { bearer: this.requireToken() });
      this.setToken(result);
      return result;
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
      return this.http.post<T>(path, body, { bearer: this.requireToken(), ...(signal ? { signal } : {}) });
    }
  }

  private expiresSoon(): boolean {
    const exp = this.token ? readJwtClaims(this.token).exp : undefined;
    return exp !== undefined && exp * 1000 - this.now() < this.marginMs;
  }


  private requireToken(): string {
    if (!this.token) throw new SvcError('NOT_SIGNED_IN', 'sign in first');
    return this.token;
  }
}
