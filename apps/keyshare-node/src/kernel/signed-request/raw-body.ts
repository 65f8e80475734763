import express, { type Request, type RequestHandler } from 'express';
import { JSON_BODY_LIMIT } from '@svc/http';

/**
 * Signed requests sign SHA-256 of the exact body bytes, so the bytes must be kept: this JSON
 * parser (mounted before the routes) parses as usual and remembers them. The routes' own parser
 * then finds the body already read and leaves it alone.
 */
export const jsonWithRawBody: RequestHandler = express.json({
  limit: JSON_BODY_LIMIT,
  verify: (req, _res, buf) => {
    (req as Request & { rawBody?: Buffer }).rawBody = Buffer.from(buf);
  },
});

/** The body bytes as received (empty when there was no JSON body). */
export function rawBodyOf(req: Request): Uint8Array {
  return (req as Request & { rawBody?: Buffer }).rawBody ?? new Uint8Array(0);
}
