import type { PrismaClient } from '@svc/db';
import type { Tx } from '../../kernel/ecdsa/step-session-repo.js';

export interface TakenTriple {
  id: string;
  material: Uint8Array;
  material_key_id: string;
}

export interface NewPresignatureRow {
  id: string;
  material: Uint8Array;
  keyId: string;
}

export function ecdsaPresignRepo(db: PrismaClient) {
  return {
    unusedCount(walletId: string): Promise<number> {
      return db.presignaturePoolItem.count({ where: { walletId, status: 'UNUSED' } });
    },

    /**
     * Single use of triples, in one statement: lock the requested UNUSED rows of this wallet,
     * mark them CONSUMED by the session and blank their stored material, and return the material
     * as it was. A concurrent presign naming the same triples waits on the row locks, then finds
     * them CONSUMED and gets fewer rows: the caller's count check rolls its transaction back.
     */
    async consumeTriples(tx: Tx, sessionId: string, walletId: string, ids: string[]): Promise<TakenTriple[]> {
      return tx.$queryRaw<TakenTriple[]>`
        WITH old AS (
          SELECT id, material, material_key_id FROM triple_pool
          WHERE id = ANY(${ids}::uuid[]) AND wallet_id = ${walletId}::uuid AND status = 'UNUSED'
          FOR UPDATE
        ), upd AS (
          UPDATE triple_pool t
          SET status = 'CONSUMED', consumed_at = now(), consumed_by_session_id = ${sessionId}::uuid, material = ''::bytea
          FROM old WHERE t.id = old.id AND t.status = 'UNUSED'
          RETURNING t.id
        )
        SELECT old.id::text AS id, old.material, old.material_key_id FROM old JOIN upd ON upd.id = old.id`;
    },

    /** As for triples: the wallet row lock serialises concurrent batches of one wallet. */
    async lockAndCheckCap(tx: Tx, walletId: string, adding: number, max: number): Promise<boolean> {
      await tx.$queryRaw`SELECT id FROM wallets WHERE id = ${walletId}::uuid FOR UPDATE`;
      const unused = await tx.presignaturePoolItem.count({ where: { walletId, status: 'UNUSED' } });
      return unused + adding <= max;
    },

    async insert(tx: Tx, walletId: string, rows: NewPresignatureRow[]): Promise<void> {
      await tx.presignaturePoolItem.createMany({
        data: rows.map((r) => ({ id: r.id, walletId, material: Buffer.from(r.material), materialKeyId: r.keyId, status: 'UNUSED' as const })),
      });
    },
  };
}

export type EcdsaPresignRepo = ReturnType<typeof ecdsaPresignRepo>;
