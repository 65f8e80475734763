import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { ParamSchema } from 'express-validator';

/**
 * Emails are stored and compared lower-cased and trimmed, so "Ann@X.com" and "ann@x.com"
 * are one account. Validation rules of an email field, normalising it in place.
 */
export function emailRules(field = 'email'): ParamSchema {
  return {
    exists: { errorMessage: `${field} is required`, bail: true },
    isString: { errorMessage: `${field} must be a string`, bail: true },
    trim: true,
    toLowerCase: true,
    isLength: { options: { max: 254 }, errorMessage: `${field} must be at most 254 characters`, bail: true },
    isEmail: { errorMessage: `${field} must be a valid email address` },
  };
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
  const body = req.body as Record<string, unknown> | undefined;
  const email = typeof body?.email === 'string' ? normalizeEmail(body.email) : '';
  // ipKeyGenerator groups an IPv6 address by its /56 prefix: one host owns many addresses.
  return `${ipKeyGenerator(req.ip ?? 'unknown')}|${email}`;
}
