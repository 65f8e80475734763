// The caller of a /keyshare/v1 route, as the signed-request guard establishes it (signed-request/).

/** Who is asking: the verified ID token's identity, and the signed request's nonce. */
export interface Caller {
  authType: string;
  subject: string;
  nonce: string;
  /** When the nonce's timestamp window has passed (the nonce row can be purged then). */
  nonceExpiresAt: Date;
}
