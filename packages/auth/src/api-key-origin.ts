import type { Request, Response } from 'express';
import { AppError } from '@svc/envelope';
import type { ApiKeyOwner } from './api-key.js';

/**
 * A key's allowed origins (docs/auth.md, "Allowed origins"), checked on the actual request.
 *
 * The CORS preflight cannot do it: a browser sends OPTIONS without the request's headers, so
 * without X-API-Key, and the server cannot tell which key, hence which origins, will follow.
 * Preflights therefore stay permissive (any origin may send X-API-Key and a JSON body). The
 * check sits here instead, on the request itself: X-API-Key is not a CORS-safelisted header,
 * so a browser always preflights a request carrying it and then sends the request with its
 * Origin; a key guard runs before any route work, so a refused origin changes nothing.
 *
 * The refusal is 403 ORIGIN_NOT_ALLOWED, and its response drops the Access-Control-Allow-Origin
 * the CORS middleware put on it: a page of another origin cannot even read the answer. A
 * request without Origin (a server, the SDK in Node, curl) is not a browser's cross-origin
 * call and is let through: allowed origins keep a key published in a web app from being used
 * by other web sites, they do not authenticate servers (which can send any Origin they like).
 */
export function refuseForeignOrigin(req: Request, res: Response, owner: ApiKeyOwner): void {
  const origin = req.get('origin');
  const allowed = owner.allowedOrigins ?? [];
  if (origin === undefined || allowed.length === 0 || allowed.includes(origin)) return;
  res.removeHeader('Access-Control-Allow-Origin');
  res.removeHeader('Access-Control-Allow-Credentials');
  res.removeHeader('Access-Control-Expose-Headers');
  throw new AppError('ORIGIN_NOT_ALLOWED', 'Origin not allowed for this API key');
}
