import { AppError } from '@svc/envelope';
import { idTokenCommitKey, sha256Hex } from '@svc/keyshare-client';
import type { VerifyIdToken } from '../id-token.js';
import type { Caller } from '../caller.js';
import { checkRequestSignature, checkSignedRequestShape } from './verify.js';

/** The commits of ID tokens (modules/commit's repository answers; src/app.ts hands it over). */
export interface LiveCommits {
  /** The session key committed under this commit key (idTokenCommitKey), unless the commit has expired. */
  findLive(commitKey: string, now: Date): Promise<string | undefined>;
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
 * 0. the token is one canonical spelling of a known format (401 UNAUTHORIZED otherwise), which
 *    gives its commit key (idTokenCommitKey of @svc/keyshare-client, the function the client
 *    committed with);
 * 1. the signature headers are well formed and the timestamp is within the window;
 * 2. the ID token verifies (provider, signature, expiry) -> the caller's identity;
 * 3. the token's commit key was committed here, and that commit names the session key;
 * 4. the session key signed this exact request (node, method, path, time, nonce, token, body).
 * The nonce is consumed later, in the same transaction as the operation (KeyShareService).
 *
 * Why the commit key and not SHA-256 of the bearer string: one token has many spellings that
 * verify (a JWT signature's last base64url character, ECDSA's (r, n - s), Telegram JSON
 * re-encoded). Keyed on the string, each spelling was "not committed yet", so whoever saw the
 * token could commit a re-spelling to a key of its own and fetch the owner's shares. The commit
 * key is the same for every spelling, so the owner's first commit holds for all of them.
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
    let commitKey: string;
    try {
      commitKey = idTokenCommitKey(req.idToken);
    } catch (cause) {
      // A re-spelled token (padding, non-zero unused bits, an unknown format) is refused
      // outright, as the ID token guard refuses any token it cannot accept.
      throw new AppError('UNAUTHORIZED', 'Unauthorized', { cause });
    }
    // The signature covers the exact bytes sent; the commit is looked up by the canonical key.
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

    const sessionPublicKey = await this.deps.commits.findLive(commitKey, new Date(now));
    if (!sessionPublicKey) throw new AppError('ID_TOKEN_NOT_COMMITTED', 'This ID token was not committed to this node');
    checkRequestSignature(input, sessionPublicKey);

    // The nonce must stay recorded as long as its timestamp could still be accepted.
    return { authType: identity.authType, subject: identity.subject, nonce, nonceExpiresAt: new Date(timestampMs + this.deps.windowMs) };
  }
}
