import type { KeyshareNodeRef } from '@svc/keyshare-client';
import type { SignInResult } from '@svc/contract';
import type { SvcError } from '../errors.js';
import type { FetchLike } from '../http/http-client.js';
import type { ShareStorage } from '../storage/share-storage.js';
import type { AuthedClient } from './authed-client.js';
import type { EcdsaWiring } from './ecdsa-pools.js';

export interface SvcWalletOptions {
  /** The gateway, e.g. https://wallet.example.com. */
  gatewayUrl: string;
  /** The app's API key (X-API-Key). */
  apiKey: string;
  /**
   * Where the client shares live (default: memory, i.e. lost on reload), and the session
   * (service JWT + account, under its own key) that `restore()` continues after a reload.
   */
  storage?: ShareStorage;
  /** The key share nodes and threshold; default: asked from user/check for the signing-in email. */
  keyshareNodes?: KeyshareNodeRef[];
  keyshareThreshold?: number;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Refresh the service JWT this many seconds before it expires (default 60). */
  refreshMarginSeconds?: number;
  /** How fresh an ID token must be for exportKeys (default 300 s). */
  exportMaxAgeSeconds?: number;
  /** ECDSA presignatures kept ready per wallet, filled in the background (default 4). */
  presignaturePoolSize?: number;
  /** A background presignature fill failed (the next signature retries in the foreground). */
  onBackgroundError?: (err: unknown) => void;
  /** Replaces the ECDSA wiring (default: tss-api triples/presign/sign with an in-memory pool). */
  ecdsa?: (wallet: { publicKey: Uint8Array; api: AuthedClient }) => EcdsaWiring;
  /** Every new service token (sign-in, keygen, refresh); the SDK persists it in `storage` itself. */
  onToken?: (result: SignInResult) => void;
  /**
   * The session ended: the server refused the service JWT after the SDK's refresh attempt
   * (expired past SIGNIN_SILENTLY_WINDOW, signed out elsewhere). Called once; the call that
   * found out, and every later one, fails with SESSION_EXPIRED; sign in again.
   */
  onSessionExpired?: (err: SvcError) => void;
}
