import type { PrismaClient } from '@svc/db';
import type { Tx } from '../ecdsa-common/step-session-repo.js';

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

    async insert(tx: Tx, walletId: string, rows: NewTripleRow[]): Promise<void> {
      await tx.triplePoolItem.createMany({
        data: rows.map((r) => ({ id: r.id, walletId, material: Buffer.from(r.material), materialKeyId: r.keyId, status: 'UNUSED' as const })),
      });
    },
  };
}

export type EcdsaTriplesRepo = ReturnType<typeof ecdsaTriplesRepo>;
