import type { Request, Response } from 'express';
import { AppError } from '@svc/envelope';
import { bearerToken } from '@svc/auth';
import type { Guard } from '@svc/http';
import { SIGNED_REQUEST_HEADERS } from '@svc/keyshare-client';
import type { Caller } from '../caller.js';
import type { RequestAuthenticator } from './authenticator.js';
import { rawBodyOf } from './raw-body.js';

/** Route guard of the user routes: a committed ID token plus the session key's request signature. */
export function signedRequestGuard(authenticator: RequestAuthenticator): Guard {
  return {
    name: 'committedIdToken',
    scheme: {
      type: 'http',
      scheme: 'bearer',
      description:
        'Authorization: Bearer <ID token> whose commit key (SHA-256 of its canonical form) was committed to this node with a ' +
        'session key (POST /commit/v1/id-token); a token not in canonical form (e.g. base64url with padding or non-zero unused bits) is 401. ' +
        'plus X-KS-Timestamp (Unix ms), X-KS-Nonce (16-32 random bytes, hex) and X-KS-Signature (hex Ed25519 signature by the ' +
        'session key over the canonical request; see docs/keyshare.md).',
    },
    middleware: async (req: Request, res: Response, next: (err?: unknown) => void) => {
      res.locals.caller = await authenticator.authenticate({
        idToken: bearerToken(req),
        method: req.method,
        path: req.path,
        body: rawBodyOf(req),
        timestamp: req.get(SIGNED_REQUEST_HEADERS.timestamp),
        nonce: req.get(SIGNED_REQUEST_HEADERS.nonce),
        signature: req.get(SIGNED_REQUEST_HEADERS.signature),
      });
      next();
    },
  };
}

export function callerOf(res: Response): Caller {
  const caller = res.locals.caller as Caller | undefined;
  if (!caller) throw new AppError('UNAUTHORIZED', 'Unauthorized');
  return caller;
}
