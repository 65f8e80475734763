import type { Envelope } from '@svc/envelope';
import { SvcError } from '../errors.js';

/** The subset of fetch the client uses, so apps can pass their own (tests, proxies, React Native). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpClientOptions {
  /** The gateway, e.g. https://wallet.example.com (paths like /tss/v1/... are appended). */
  gatewayUrl: string;
  /** The app's API key, sent as X-API-Key on every request. */
  apiKey: string;
  /** Per-request time limit in milliseconds (default 30 s). */
  timeoutMs?: number;
  fetch?: FetchLike;
}

export interface RequestOptions {
  /**
   * Bearer credential for this call: the service JWT, or a login provider's ID token for
   * sign-in/keygen/reshare (spec §5). Omitted for public calls such as user/check.
   */
  bearer?: string;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A small fetch-based client for the service's JSON API: it adds X-API-Key and the bearer,
 * and decodes the spec §2 envelope, turning `success: false` into SvcError(code, msg, status).
 */
export class HttpClient {
  readonly gatewayUrl: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly fetchFn: FetchLike;

  constructor(options: HttpClientOptions) {
    if (!/^https?:\/\//.test(options.gatewayUrl)) {
      throw new SvcError('INVALID_ARGUMENT', 'gatewayUrl must be an http(s) URL');
    }
    if (!options.apiKey) throw new SvcError('INVALID_ARGUMENT', 'apiKey is required');
    this.gatewayUrl = options.gatewayUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // Bound to globalThis: browsers throw "Illegal invocation" for a detached window.fetch.
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** POSTs a JSON body and returns the envelope's `data`. */
  post<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, body, options);
  }

  get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, undefined, options);
  }

  private async request<T>(method: string, path: string, body: unknown, options: RequestOptions): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-api-key': this.apiKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;

    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? anySignal([options.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await this.fetchFn(`${this.gatewayUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      if (timeout.aborted) throw new SvcError('TIMEOUT', `${method} ${path} timed out after ${this.timeoutMs} ms`, 0, { cause: err });
      // The app cancelled: SvcError is the one error type the SDK throws, the AbortError its cause.
      if (options.signal?.aborted) throw new SvcError('ABORTED', `${method} ${path} was aborted`, 0, { cause: err });
      throw new SvcError('NETWORK_ERROR', `${method} ${path} failed: ${describe(err)}`, 0, { cause: err });
    }
    return decodeEnvelope<T>(response, `${method} ${path}`);
  }
}

/** Reads a response as the spec §2 envelope; anything else is INVALID_RESPONSE carrying the status. */
export async function decodeEnvelope<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SvcError('INVALID_RESPONSE', `${what} answered ${response.status} with a body that is not JSON`, response.status);
  }
  const envelope = parsed as Partial<Envelope<T>> | null;
  if (envelope === null || typeof envelope !== 'object' || typeof envelope.success !== 'boolean') {
    throw new SvcError('INVALID_RESPONSE', `${what} answered ${response.status} without the response envelope`, response.status);
  }
  if (envelope.success === false) {
    const { code, msg } = envelope as { code?: unknown; msg?: unknown };
    if (typeof code !== 'string' || typeof msg !== 'string') {
      throw new SvcError('INVALID_RESPONSE', `${what} answered ${response.status} with an error envelope lacking code or msg`, response.status);
    }
    throw new SvcError(code, msg, response.status);
  }
  if (!response.ok) {
    throw new SvcError('INVALID_RESPONSE', `${what} answered ${response.status} with success true`, response.status);
  }
  return (envelope as { data?: T }).data ?? (null as T);
}

function anySignal(signals: AbortSignal[]): AbortSignal {
  // AbortSignal.any is missing in Safari < 17.4 and Node < 20.3.
  const any = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (any) return any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) controller.abort(s.reason);
    else s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}
