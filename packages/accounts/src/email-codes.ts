import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError } from '@svc/envelope';
import { field } from '@svc/http';
import type { EmailVerificationPurpose, Prisma, PrismaClient } from '@svc/db';
import { emailCodeRepo } from './email-code-repo.js';

export const EMAIL_CODE_LENGTH = 6;
export const EMAIL_CODE_MAX_ATTEMPTS = 5;

/** The request field that carries an emailed code. */
export const emailCodeField = () => field.string({ pattern: new RegExp(`^[0-9]{${EMAIL_CODE_LENGTH}}$`), message: `code must be ${EMAIL_CODE_LENGTH} digits` });

export interface EmailCodeOptions {
  /** Server secret the codes are MACed with (derived from JWT_SECRET by the apps). */
  secret: string;
  /** EMAIL_VERIFICATION_EXPIRATION_MINUTES */
  ttlMinutes: number;
  maxAttempts?: number;
  now?: () => Date;
}

/**
 * One-time email codes (signup verification, password reset). A code is 6 random digits;
 * the database keeps only HMAC-SHA256(server secret, purpose|email|code), because a plain
 * hash of a 6-digit code is reversed by trying all 10^6 values. Checking takes an attempt
 * first (at most `maxAttempts` per code, also under concurrency), compares in constant
 * time, and use is a conditional update so a code works once.
 */
export function emailCodes(db: PrismaClient, options: EmailCodeOptions) {
  const key = createHmac('sha256', options.secret).update('svc email codes v1').digest();
  const maxAttempts = options.maxAttempts ?? EMAIL_CODE_MAX_ATTEMPTS;
  const now = options.now ?? (() => new Date());
  const repo = emailCodeRepo(db);
  const mac = (purpose: EmailVerificationPurpose, email: string, code: string) =>
    createHmac('sha256', key).update(`${purpose}|${email}|${code}`).digest('hex');

  return {
    ttlMinutes: options.ttlMinutes,

    /** A new code for `email`; the caller mails it. Older codes of the same purpose stop working. */
    async issue(purpose: EmailVerificationPurpose, email: string): Promise<{ code: string; expiresAt: Date }> {
      const code = String(randomInt(0, 10 ** EMAIL_CODE_LENGTH)).padStart(EMAIL_CODE_LENGTH, '0');
      const expiresAt = new Date(now().getTime() + options.ttlMinutes * 60_000);
      await repo.insert({ purpose, email, codeHash: mac(purpose, email, code), expiresAt });
      return { code, expiresAt };
    },

    /**
     * Checks a code without using it up; returns the id to pass to `consume` inside the
     * transaction that acts on it. Throws INVALID_CODE, CODE_EXPIRED or TOO_MANY_ATTEMPTS.
     */
    async check(purpose: EmailVerificationPurpose, email: string, code: string): Promise<string> {
      const row = await repo.findLatest(purpose, email);
      if (!row) throw new AppError('INVALID_CODE', 'Invalid verification code');
      if (row.expiresAt.getTime() <= now().getTime()) throw new AppError('CODE_EXPIRED', 'Verification code has expired');
      if (!(await repo.takeAttempt(row.id, maxAttempts))) {
        // Either the attempts are used up, or a concurrent request used the code meanwhile.
        if ((await repo.find(row.id))?.consumedAt) throw new AppError('INVALID_CODE', 'Invalid verification code');
        throw new AppError('TOO_MANY_ATTEMPTS', 'Too many attempts, request a new code');
      }
      const expected = Buffer.from(row.codeHash, 'hex');
      const given = Buffer.from(mac(purpose, email, code), 'hex');
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw new AppError('INVALID_CODE', 'Invalid verification code');
      }
      return row.id;
    },

    /** Uses a checked code, on the transaction that acts on it; throws INVALID_CODE when another request used it first. */
    async consume(tx: PrismaClient | Prisma.TransactionClient, id: string): Promise<void> {
      if (!(await emailCodeRepo(tx).consume(id, now()))) throw new AppError('INVALID_CODE', 'Invalid verification code');
    },
  };
}

export type EmailCodes = ReturnType<typeof emailCodes>;
