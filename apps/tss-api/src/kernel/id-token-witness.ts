import { createHash } from 'node:crypto';
import type { VerifiedIdentity } from '@svc/auth';
import type { Prisma, PrismaClient } from '@svc/db';
import { AppError } from '@svc/envelope';

/**
 * Replay records of ID tokens (table witnessed_id_tokens): an ID token that a state-changing
 * operation accepted is recorded under that operation, and a second use of the same token for
 * the same operation is refused with 401 ID_TOKEN_REPLAYED. What identifies a token is
 * VerifiedIdentity.tokenId (provider, subject and a digest of what the provider signed). A row
 * can go once the token has expired: the verifier refuses it then anyway.
 */
export function idTokenWitness(db: PrismaClient) {
  const hashOf = (identity: VerifiedIdentity, purpose: string) => createHash('sha256').update(`${purpose}\0${identity.tokenId}`).digest('hex');
  return {
    /** Records the use; inside `tx` when the operation's own writes must stand or fall with it. */
    async record(identity: VerifiedIdentity, purpose: string, userId: string | null, tx: Prisma.TransactionClient | PrismaClient = db): Promise<void> {
      const { count } = await tx.witnessedIdToken.createMany({
        data: [{ tokenHash: hashOf(identity, purpose), userId, authType: identity.authType, purpose, expiresAt: identity.expiresAt }],
        skipDuplicates: true,
      });
      if (count !== 1) throw new AppError('ID_TOKEN_REPLAYED', 'This ID token was already used for this operation; sign in again');
    },

    /** Takes a record back when the operation it guarded failed (so the client may retry with the same token). */
    async forget(identity: VerifiedIdentity, purpose: string): Promise<void> {
      await db.witnessedIdToken.deleteMany({ where: { tokenHash: hashOf(identity, purpose) } });
    },
  };
}

export type IdTokenWitness = ReturnType<typeof idTokenWitness>;
