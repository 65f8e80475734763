/**
 * The one error type of @svc/crypto. `code` is stable and machine-readable; `culprits`
 * names the participant identifiers (1 = client P0, 2 = server P1) whose data failed a
 * check, when the failure can be attributed to a peer.
 */
export type CryptoErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_ENCODING'
  | 'INVALID_POINT'
  | 'INVALID_SCALAR'
  | 'INVALID_SIGNATURE_SHARE'
  | 'INVALID_SIGNATURE'
  | 'INVALID_COMMITMENT'
  | 'INVALID_PROOF'
  | 'INVALID_SHARE'
  | 'KEY_MISMATCH'
  | 'NOT_ENOUGH_SHARES'
  | 'CHECK_FAILED'
  | 'STATE_CONSUMED'
  | 'PROTOCOL_ABORTED'
  | 'UNSUPPORTED_VERSION';

export class CryptoError extends Error {
  override readonly name = 'CryptoError';
  constructor(
    readonly code: CryptoErrorCode,
    message: string,
    readonly culprits: readonly number[] = [],
  ) {
    super(message);
  }
}
