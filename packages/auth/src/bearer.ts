import type { Request } from 'express';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}
