import { AppError } from '@svc/envelope';
import { sha256Hex } from '@svc/keyshare-client';
import type { VerifyIdToken } from '../id-token.js';
import type { Caller } from '../caller.js';
import { checkRequestSignature, checkSignedRequestShape } from './verify.js';

/** The commits of ID tokens (modules/commit's repository answers; src/app.ts hands it over). */
export interface LiveCommits {
  /** The session key committed for this token hash, unless the commit has expired. */
  findLive(tokenHash: string, now: Date): Promise<string | undefined>;
}

export interface SignedRequest {
  idToken: string | undefined;
  method: string;
  path: string;
  body: Uint8Array;
  timestamp: string | undefined;
  nonce: string | undefined;
  signature: string | undefined;
}

/**
 * Authenticates a /keyshare/v1 request (docs/architecture.md, invariant 6), cheapest checks first:
 * 1. the signature headers are well formed and the timestamp is within the window;
 * 2. the ID token verifies (provider, signature, expiry) -> the caller's identity;
 * 3. SHA-256(token) was committed here, and that commit names the session key;
 * 4. the session key signed this exact request (node, method, path, time, nonce, token, body).
 * The nonce is consumed later, in the same transaction as the operation (KeyShareService).
 */
export class RequestAuthenticator {
  constructor(
    private readonly deps: {
      nodeName: string;
      verifyIdToken: VerifyIdToken;
      commits: LiveCommits;
      windowMs: number;
      clock?: () => number;
    },
  ) {}

  async authenticate(req: SignedRequest): Promise<Caller> {
    const now = (this.deps.clock ?? Date.now)();
    if (!req.idToken) throw new AppError('UNAUTHORIZED', 'Unauthorized');
    const idTokenHash = sha256Hex(req.idToken);
    const input = { nodeName: this.deps.nodeName, method: req.method, path: req.path, idTokenHash, body: req.body, timestamp: req.timestamp, nonce: req.nonce, signature: req.signature };
    const { timestampMs, nonce } = checkSignedRequestShape(input, now, this.deps.windowMs);

    let identity;
    try {
      identity = await this.deps.verifyIdToken(req.idToken);
    } catch (cause) {
      throw new AppError('UNAUTHORIZED', 'Unauthorized', { cause });
    }
    if (identity.expiresAt.getTime() <= now) throw new AppError('UNAUTHORIZED', 'Unauthorized');

    const sessionPublicKey = await this.deps.commits.findLive(idTokenHash, new Date(now));
    if (!sessionPublicKey) throw new AppError('ID_TOKEN_NOT_COMMITTED', 'This ID token was not committed to this node');
    checkRequestSignature(input, sessionPublicKey);

    // The nonce must stay recorded as long as its timestamp could still be accepted.
    return { authType: identity.authType, subject: identity.subject, nonce, nonceExpiresAt: new Date(timestampMs + this.deps.windowMs) };
  }
}
