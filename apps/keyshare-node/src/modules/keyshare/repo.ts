import type { NodeDb } from '../../kernel/database.js';
import type { Curve, KeyShare, Prisma } from '../../generated/prisma/client.js';

type Tx = Prisma.TransactionClient;

export interface NewKeyShare {
  id: string;
  authType: string;
  subject: string;
  curve: Curve;
  publicKey: string;
  shareCiphertext: Uint8Array;
  shareKeyId: string;
}

/** Key share rows and the used-nonce table; only this file touches them. */
export class KeyShareRepo {
  constructor(private readonly db: NodeDb) {}

  /** Runs `work` in one transaction (nonce consumption and the share write commit together). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.$transaction(work);
  }

  /**
   * Marks a nonce used. The primary key makes this single use in the database, also under
   * concurrency: of two requests with one nonce, exactly one inserts (count 1).
   */
  async consumeNonce(tx: Tx, nonce: string, expiresAt: Date): Promise<boolean> {
    const { count } = await tx.usedNonce.createMany({ data: [{ nonce, expiresAt }], skipDuplicates: true });
    return count === 1;
  }

  async purgeNonces(now: Date): Promise<number> {
    const { count } = await this.db.usedNonce.deleteMany({ where: { expiresAt: { lte: now } } });
    return count;
  }

  find(tx: Tx | NodeDb, curve: Curve, publicKey: string): Promise<KeyShare | null> {
    return tx.keyShare.findUnique({ where: { curve_publicKey: { curve, publicKey } } });
  }

  /** Inserts unless a share for (curve, public key) exists: true when inserted. */
  async insert(tx: Tx, share: NewKeyShare): Promise<boolean> {
    const { count } = await tx.keyShare.createMany({ data: [{ ...share, shareCiphertext: Buffer.from(share.shareCiphertext) }], skipDuplicates: true });
    return count === 1;
  }

  /** Replaces the sealed share of a row still owned by this identity: true when one row changed. */
  async replace(tx: Tx, id: string, owner: { authType: string; subject: string }, sealed: { shareCiphertext: Uint8Array; shareKeyId: string }): Promise<boolean> {
    const { count } = await tx.keyShare.updateMany({
      where: { id, authType: owner.authType, subject: owner.subject },
      data: { shareCiphertext: Buffer.from(sealed.shareCiphertext), shareKeyId: sealed.shareKeyId },
    });
    return count === 1;
  }

  async exists(curve: Curve, publicKey: string): Promise<boolean> {
    return (await this.db.keyShare.count({ where: { curve, publicKey } })) > 0;
  }
}
