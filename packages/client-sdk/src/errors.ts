import type { ErrorCode } from '@svc/envelope';

/**
 * Codes for failures the SDK detects itself, apart from the server's codes (spec §7 and
 * @svc/envelope's ERROR_STATUS). Their status is 0: no HTTP answer carried them.
 */
export const CLIENT_ERROR_CODES = [
  'NETWORK_ERROR', // fetch rejected: DNS, refused connection, CORS, offline
  'TIMEOUT', // the request outlived its time limit
  'INVALID_RESPONSE', // the server's body was not the spec §2 envelope
  'INVALID_ARGUMENT', // the app passed something the method cannot sign
  'INVALID_SIGNATURE', // a signer produced a signature that does not verify: never returned to the app
  'NOT_A_SIGNER', // the transaction does not ask this wallet for a signature
  'RPC_ERROR', // a chain JSON-RPC node answered with an error
  'PROTOCOL_ERROR', // the server's protocol answer failed a check (commitment, signature share, public key): nothing is returned
  'KEYSHARE_ERROR', // the key share nodes could not commit, store or return enough shares
  'NOT_SIGNED_IN', // the flow needs a sign-in (or a fresh ID token) first
  'NO_LOCAL_SHARE', // this device holds no client share for the wallet: recover() first
  'ECDSA_UNAVAILABLE', // no presignature could be produced for a signature
  'ABORTED', // the app's AbortSignal fired: the flow stopped between steps, storage unchanged
] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/*
 * SESSION_EXPIRED is also a server code (410: a protocol session outlived its TTL). The SDK
 * raises it with status 0 when the service JWT is refused (401) after the refresh the SDK
 * tries: the session is over and `onSessionExpired` was called (src/wallet/authed-client.ts).
 */

/** A server code we know, one we do not know yet (newer server), or a client-side code. */
export type SvcErrorCode = ErrorCode | ClientErrorCode | (string & {});

/**
 * The one error type the SDK throws. `code` and `msg` are the server's envelope fields as
 * received when the failure came from the service; `status` is the HTTP status, or 0 when the
 * SDK detected the failure itself.
 */
export class SvcError extends Error {
  override readonly name = 'SvcError';
  constructor(
    readonly code: SvcErrorCode,
    readonly msg: string,
    readonly status: number = 0,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${msg}`, options);
  }

  /** True when the service itself answered with this error (an envelope with success false). */
  get fromServer(): boolean {
    return this.status !== 0 && !(CLIENT_ERROR_CODES as readonly string[]).includes(this.code);
  }
}

export function isSvcError(value: unknown, code?: SvcErrorCode): value is SvcError {
  return value instanceof SvcError && (code === undefined || value.code === code);
}
