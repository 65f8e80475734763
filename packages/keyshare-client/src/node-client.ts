import type { NodeInfo, StoredKeyShare } from '@svc/contract';
import { KEYSHARE_PATHS, type Curve } from './protocol.js';
import type { IdTokenSession } from './session.js';

/** A key share node as the main API lists it (spec keyshare_node_meta.nodes[]). */
export interface KeyshareNodeRef {
  name: string;
  endpoint: string;
}

/** What a node answered with when it refused, or why it could not be reached. */
export class KeyshareNodeError extends Error {
  override readonly name = 'KeyshareNodeError';
  constructor(
    readonly node: string,
    /** HTTP status, or 0 when the node was unreachable or timed out. */
    readonly status: number,
    /** Envelope code (e.g. KEY_SHARE_NOT_FOUND), or NODE_UNREACHABLE / INVALID_RESPONSE. */
    readonly code: string,
    msg: string,
  ) {
    super(`${node}: ${code}: ${msg}`);
  }
}

/** GET /keyshare/v1/info's answer, as its contract declares it. */
export type { NodeInfo };

export interface WalletRef {
  curve: Curve;
  /** Lowercase hex of the wallet public key. */
  publicKey: string;
}

export interface KeyshareNodeClientOptions {
  /** Per-request time limit (default 10 s). */
  timeoutMs?: number;
  /** fetch to use (default the global one: browsers and Node >= 20). */
  fetch?: typeof fetch;
}

/** One key share node's HTTP API (paths and shapes in docs/keyshare.md). */
export class KeyshareNodeClient {
  readonly name: string;
  readonly endpoint: string;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(node: KeyshareNodeRef, options: KeyshareNodeClientOptions = {}) {
    this.name = node.name;
    this.endpoint = node.endpoint.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.fetchFn = options.fetch ?? ((...args) => globalThis.fetch(...args));
  }

  info(): Promise<NodeInfo> {
    return this.send<NodeInfo>('GET', KEYSHARE_PATHS.info);
  }

  /** Commits the ID token's commit key (idTokenCommitKey) with the session's public key. Idempotent for the same key. */
  async commit(session: IdTokenSession): Promise<void> {
    await this.send('POST', KEYSHARE_PATHS.commit, {
      id_token_hash: session.commitKey,
      session_public_key: session.sessionPublicKey,
    });
  }

  /** Stores this node's share of a wallet; `reshare` replaces the caller's existing share. */
  async register(session: IdTokenSession, wallet: WalletRef, share: string, options: { reshare?: boolean } = {}): Promise<void> {
    const body: Record<string, unknown> = { curve_type: wallet.curve, public_key: wallet.publicKey, share };
    if (options.reshare) body.reshare = true;
    await this.send('POST', KEYSHARE_PATHS.register, body, session);
  }

  /** The caller's share of a wallet (hex). */
  async fetchShare(session: IdTokenSession, wallet: WalletRef): Promise<StoredKeyShare> {
    return this.send('POST', KEYSHARE_PATHS.keyshare, { curve_type: wallet.curve, public_key: wallet.publicKey }, session);
  }

  /** Whether the node holds a share for this wallet key (no user credential needed). */
  async check(wallet: WalletRef): Promise<boolean> {
    const data = await this.send<{ exists: boolean }>('POST', KEYSHARE_PATHS.check, { curve_type: wallet.curve, public_key: wallet.publicKey });
    return data.exists;
  }

  private async send<T>(method: 'GET' | 'POST', path: string, body?: unknown, session?: IdTokenSession): Promise<T> {
    // The exact bytes sent are the bytes whose SHA-256 is signed.
    const text = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (session) Object.assign(headers, session.signedHeaders(this.name, method, path, text));
    let response: Response;
    try {
      response = await this.fetchFn(this.endpoint + path, {
        method,
        headers,
        ...(body === undefined ? {} : { body: text }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (cause) {
      // By name, not instanceof: the DOMException may come from another realm (workers, test VMs).
      const name = (cause as { name?: unknown } | undefined)?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw new KeyshareNodeError(this.name, 0, 'NODE_UNREACHABLE', timedOut ? `no answer within ${this.timeoutMs} ms` : 'connection failed');
    }
    const envelope = (await response.json().catch(() => undefined)) as
      | { success?: boolean; data?: T; code?: string; msg?: string }
      | undefined;
    if (!envelope || typeof envelope !== 'object' || typeof envelope.success !== 'boolean') {
      throw new KeyshareNodeError(this.name, response.status, 'INVALID_RESPONSE', 'the answer is not an envelope');
    }
    if (!envelope.success) {
      throw new KeyshareNodeError(this.name, response.status, envelope.code ?? 'UNKNOWN_ERROR', envelope.msg ?? 'request failed');
    }
    return envelope.data as T;
  }
}
