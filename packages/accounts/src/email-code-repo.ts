import type { EmailVerification, EmailVerificationPurpose } from '@svc/db';
import type { Tx } from './customer-repo.js';

export function emailCodeRepo(db: Tx) {
  return {
    insert(data: { purpose: EmailVerificationPurpose; email: string; codeHash: string; expiresAt: Date }): Promise<EmailVerification> {
      return db.emailVerification.create({ data });
    },

    /** The newest unconsumed code for an email and purpose: issuing a code supersedes older ones. */
    findLatest(purpose: EmailVerificationPurpose, email: string): Promise<EmailVerification | null> {
      return db.emailVerification.findFirst({
        where: { purpose, email, consumedAt: null },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
    },

    /**
     * Takes one attempt before the code is compared, atomically: of any number of concurrent
     * guesses at most `maxAttempts` get past this, so parallel requests cannot beat the limit.
     */
    async takeAttempt(id: string, maxAttempts: number): Promise<boolean> {
      const { count } = await db.emailVerification.updateMany({
        where: { id, consumedAt: null, attempts: { lt: maxAttempts } },
        data: { attempts: { increment: 1 } },
      });
      return count === 1;
    },

    /** Marks a code used; true for exactly one caller even under concurrency. */
    async consume(id: string, now: Date): Promise<boolean> {
      const { count } = await db.emailVerification.updateMany({
        where: { id, consumedAt: null, expiresAt: { gt: now } },
        data: { consumedAt: now },
      });
      return count === 1;
    },

    find(id: string): Promise<EmailVerification | null> {
      return db.emailVerification.findUnique({ where: { id } });
    },
  };
}
