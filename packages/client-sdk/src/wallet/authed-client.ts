import { SvcError, isSvcError } from '../errors.js';
import type { HttpClient } from '../http/http-client.js';
import { readJwtClaims } from './jwt-claims.js';
import type { SignInResult } from './tss-api-types.js';

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
 * rotation). Concurrent callers share one refresh.
 */
export class AuthedClient {
  private token: string | undefined;
  private refreshing: Promise<void> | undefined;
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

  /** signin_silently now: a valid or recently expired JWT gets a fresh one. */
  async refresh(): Promise<SignInResult> {
    const token = this.requireToken();
    const result = await this.http.post<SignInResult>('/tss/v1/user/signin_silently', undefined, { bearer: token });
    this.setToken(result);
    return result;
  }

  async post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    if (this.expiresSoon()) await this.sharedRefresh();
    try {
      return await this.http.post<T>(path, body, { bearer: this.requireToken(), ...(signal ? { signal } : {}) });
    } catch (err) {
      // The guard refused the token before the handler ran, so repeating the call is safe.
      if (!isSvcError(err, 'UNAUTHORIZED')) throw err;
      await this.sharedRefresh();
      return this.http.post<T>(path, body, { bearer: this.requireToken(), ...(signal ? { signal } : {}) });
    }
  }

  private expiresSoon(): boolean {
    const exp = this.token ? readJwtClaims(this.token).exp : undefined;
    return exp !== undefined && exp * 1000 - this.now() < this.marginMs;
  }

  private sharedRefresh(): Promise<void> {
    this.refreshing ??= this.refresh()
      .then(() => undefined)
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  private requireToken(): string {
    if (!this.token) throw new SvcError('NOT_SIGNED_IN', 'sign in first');
    return this.token;
  }
}
