import type { PrismaClient } from '@svc/db';

export interface Discarded {
  presignatures: number;
  triples: number;
}

export function ecdsaPoolRepo(db: PrismaClient) {
  return {
    /**
     * Every UNUSED presignature and triple of the wallet becomes DISCARDED with its sealed
     * material blanked, in one transaction. Rows a concurrent step1 or presign already took are
     * CONSUMED and untouched (the status condition), so nothing is both spent and discarded.
     */
    async discardUnused(walletId: string): Promise<Discarded> {
      const [presignatures, triples] = await db.$transaction([
        db.$executeRaw`
          UPDATE presignature_pool SET status = 'DISCARDED', consumed_at = now(), material = ''::bytea
          WHERE wallet_id = ${walletId}::uuid AND status = 'UNUSED'`,
        db.$executeRaw`
          UPDATE triple_pool SET status = 'DISCARDED', consumed_at = now(), material = ''::bytea
          WHERE wallet_id = ${walletId}::uuid AND status = 'UNUSED'`,
      ]);
      return { presignatures, triples };
    },
  };
}

export type EcdsaPoolRepo = ReturnType<typeof ecdsaPoolRepo>;
