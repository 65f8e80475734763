import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { field, type Field } from '@svc/http';

/** An account's email field: field.email() trims and lower-cases it in place, as stored. */
export function emailField(): Field {
  return field.email({ max: 254 });
}

/** The same normalisation outside a request (CLI input, tests). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Rate-limit key of credential endpoints: client IP plus the email asked about, so one
 * address cannot be guessed at from one place, and one busy office IP does not lock out
 * everyone behind it. The guard runs before validation, so the body is read defensively.
 */
export function ipAndEmailKey(req: Request): string {
  // ipKeyGenerator groups an IPv6 address by its /56 prefix: one host owns many addresses.
  return `${ipKeyGenerator(req.ip ?? 'unknown')}|${hashedBodyEmail(req)}`;
}

/**
 * Rate-limit key part naming the body's email: SHA-256 hex of the normalised address, or "" when
 * the body has no string email. Hashed because shared limits store keys in PostgreSQL and the
 * guard runs before validation, so the raw value may be 100k characters, hold NUL or an unpaired
 * surrogate.
 */
export function hashedBodyEmail(req: Request): string {
  const email = (req.body as Record<string, unknown> | undefined)?.email;
  return typeof email === 'string' ? createHash('sha256').update(normalizeEmail(email)).digest('hex') : '';
}
