import { isUniqueViolation, type PrismaClient } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { Tx } from '../../kernel/ecdsa/step-session-repo.js';

export interface NewTripleRow {
  id: string;
  material: Uint8Array;
  keyId: string;
}

export function ecdsaTriplesRepo(db: PrismaClient) {
  return {
    unusedCount(walletId: string, tx: Tx | PrismaClient = db): Promise<number> {
      return tx.triplePoolItem.count({ where: { walletId, status: 'UNUSED' } });
    },

    /**
     * Inside the final step's transaction: locks the wallet row so concurrent batches of one
     * wallet count and insert one after the other. False when `adding` more would exceed `max`.
     */
    async lockAndCheckCap(tx: Tx, walletId: string, adding: number, max: number): Promise<boolean> {
      await tx.$queryRaw`SELECT id FROM wallets WHERE id = ${walletId}::uuid FOR UPDATE`;
      const unused = await tx.triplePoolItem.count({ where: { walletId, status: 'UNUSED' } });
      return unused + adding <= max;
    },

    /**
     * Row ids derive from the client's protocol session id (triple-row-id.ts), so a client
     * that reuses one names rows that exist already: a 409, not a 500.
     */
    async insert(tx: Tx, walletId: string, rows: NewTripleRow[]): Promise<void> {
      try {
        await tx.triplePoolItem.createMany({
          data: rows.map((r) => ({ id: r.id, walletId, material: Buffer.from(r.material), materialKeyId: r.keyId, status: 'UNUSED' as const })),
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw new AppError('PROTOCOL_SESSION_REUSED', 'These triples are stored already: use a fresh protocol session_id for each triples run', { cause: error });
      }
    },
  };
}

export type EcdsaTriplesRepo = ReturnType<typeof ecdsaTriplesRepo>;
