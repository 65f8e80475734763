import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { AppError } from '@svc/envelope';
import { refuseForeignOrigin } from './api-key-origin.js';

/** The header an embedding app sends its API key in. */
export const API_KEY_HEADER = 'x-api-key';
const KEY_PREFIX = 'svc_';
const KEY_SHAPE = /^svc_[A-Za-z0-9_-]{43}$/;

export interface IssuedApiKey {
  /** The key itself: shown once, at creation, never stored. */
  key: string;
  /** SHA-256 of the key, hex: what the database stores and looks keys up by. */
  hash: string;
  /** The first characters, safe to display so people can tell keys apart. */
  displayPrefix: string;
}

/** A new random API key (256 bits). */
export function issueApiKey(): IssuedApiKey {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), displayPrefix: key.slice(0, 12) };
}

/**
 * Keys are looked up by their SHA-256, never compared as plaintext: the database holds no
 * usable key, and the lookup time does not depend on how much of a guessed key is right.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export interface ApiKeyOwner {
  apiKeyId: string;
  customerId: string;
  /** The browser origins the key may be used from (exact, normalised); absent or empty: any. */
  allowedOrigins?: readonly string[];
}

/**
 * A route guard requiring a live API key in `X-API-Key`. `lookup` resolves a key hash to
 * its owner, or null when the key is unknown or revoked. The owner lands in
 * `res.locals.apiKey`. A key with allowed origins is refused from any other browser origin
 * (refuseForeignOrigin).
 */
export function apiKeyGuard(lookup: (hash: string) => Promise<ApiKeyOwner | null>) {
  return {
    name: 'apiKey',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description:
        'The API key of the app embedding the wallet. Unknown or revoked: 401 INVALID_API_KEY. A key with allowed origins used from ' +
        'another browser Origin: 403 ORIGIN_NOT_ALLOWED, without Access-Control-Allow-Origin (requests without Origin are not affected).',
    },
    errors: ['INVALID_API_KEY', 'ORIGIN_NOT_ALLOWED'] as const,
    middleware: async (req: Request, res: Response, next: (err?: unknown) => void) => {
      const key = req.get(API_KEY_HEADER);
      if (!key || !KEY_SHAPE.test(key)) throw new AppError('INVALID_API_KEY', 'Invalid API key');
      const owner = await lookup(hashApiKey(key));
      if (!owner) throw new AppError('INVALID_API_KEY', 'Invalid API key');
      refuseForeignOrigin(req, res, owner);
      res.locals.apiKey = owner;
      next();
    },
  };
}

/** The owner an API key guard left on the response. */
export function apiKeyOwner(res: Response): ApiKeyOwner {
  const owner = res.locals.apiKey as ApiKeyOwner | undefined;
  if (!owner) throw new AppError('INVALID_API_KEY', 'Invalid API key');
  return owner;
}
