/**
 * Why an ID token was refused. Callers answer 401 either way; the reason is for logs and
 * tests, never for the client (it would help someone probing for a working token).
 */
export type IdTokenFailure =
  | 'malformed'
  | 'unknown_issuer'
  | 'provider_not_enabled'
  | 'invalid_signature_or_claims'
  | 'expired'
  | 'email_not_verified'
  | 'provider_rejected'
  /** A live access token, but issued to another application than this deployment's. */
  | 'foreign_application'
  | 'provider_unreachable';

export class IdTokenError extends Error {
  override readonly name = 'IdTokenError';
  constructor(
    readonly reason: IdTokenFailure,
    message: string = reason,
  ) {
    super(message);
  }
}
