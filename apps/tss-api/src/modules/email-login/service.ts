import { normalizeEmail } from '@svc/accounts';
import { AppError } from '@svc/envelope';
import type { Mailer } from '@svc/mailer';
import type { EmailIdTokenIssuer } from './id-token-issuer.js';
import { LoginCodeHasher, generateLoginCode } from './login-code.js';
import type { EmailLoginRepo } from './repo.js';

export interface EmailLoginOptions {
  codeTtlMinutes: number;
  maxAttempts: number;
  serverSecret: string;
}

/** One-time-code login: mail a code, trade the right code (once) for a signed ID token. */
export function emailLoginService(repo: EmailLoginRepo, mailer: Mailer, issuer: EmailIdTokenIssuer, options: EmailLoginOptions) {
  const hasher = new LoginCodeHasher(options.serverSecret);
  return {
    async requestCode(rawEmail: string): Promise<{ expires_at: string }> {
      const email = normalizeEmail(rawEmail);
      const code = generateLoginCode();
      const expiresAt = new Date(Date.now() + options.codeTtlMinutes * 60_000);
      await repo.replaceCode(email, hasher.hash(email, code), expiresAt);
      await mailer.send({
        to: email,
        subject: 'Your wallet login code',
        text: `Your login code is ${code}\n\nIt expires in ${options.codeTtlMinutes} minutes. If you did not ask for it, ignore this mail.`,
      });
      return { expires_at: expiresAt.toISOString() };
    },

    async verifyCode(rawEmail: string, code: string): Promise<{ id_token: string; expires_at: string }> {
      const email = normalizeEmail(rawEmail);
      const pending = await repo.latestUnconsumed(email);
      if (!pending) throw new AppError('INVALID_CODE', 'Invalid code');
      if (pending.expiresAt.getTime() <= Date.now()) throw new AppError('CODE_EXPIRED', 'Code expired');
      if (!(await repo.takeAttempt(pending.id, options.maxAttempts))) throw new AppError('TOO_MANY_ATTEMPTS', 'Too many attempts, request a new code');
      if (!hasher.matches(email, code, pending.codeHash)) throw new AppError('INVALID_CODE', 'Invalid code');
      if (!(await repo.consume(pending.id))) throw new AppError('INVALID_CODE', 'Invalid code');
      const { idToken, expiresAt } = await issuer.issue(email);
      return { id_token: idToken, expires_at: expiresAt.toISOString() };
    },
  };
}

export type EmailLoginService = ReturnType<typeof emailLoginService>;
