import type { Prisma, PrismaClient, TssSessionKind } from '@svc/db';
import { AppError } from '@svc/envelope';

/** What a triples or presign session keeps in TssSession.state between steps. */
export interface StepSessionState {
  v: 1;
  /** Number of the next client message this session accepts (1-based). */
  next_step: number;
  /** The server's protocol state, sealed (ShareCipher string form). Removed when the session ends. */
  protocol?: string;
  /** Public facts kept for the record: batch size, pool rows written. */
  count?: number;
}

export type Tx = Prisma.TransactionClient;

/**
 * Sessions of the multi-step offline protocols (triples, presign). A step claims the sealed
 * state first (kernel/sessions/claim.ts, via kernel/ecdsa/claim-step.ts) and writes the next one back
 * here with a compare-and-swap on the state_version its claim returned.
 */
export function stepSessionRepo(db: PrismaClient) {
  return {
    /**
     * Opens a run inside the caller's transaction, within the wallet's cap of ACTIVE runs
     * (TSS_OPEN_SESSIONS_MAX): the wallet row lock makes count-then-insert exact across
     * replicas. Past the cap: 429 TOO_MANY_OPEN_SESSIONS, nothing stored. Without `stage` the
     * run is only reserved (the first step records its stage when it writes its state).
     */
    async create(s: {
      id: string;
      userId: string;
      walletId: string;
      kind: TssSessionKind;
      state: StepSessionState;
      stage?: string;
      expiresAt: Date;
      customerId: string | null;
      apiKeyId: string | null;
      openMax: number;
    }, tx: Tx): Promise<void> {
      await tx.$queryRaw`SELECT id FROM wallets WHERE id = ${s.walletId}::uuid FOR UPDATE`;
      const open = await tx.tssSession.count({
        where: { walletId: s.walletId, kind: { in: ['TRIPLES', 'PRESIGN'] }, status: 'ACTIVE', expiresAt: { gt: new Date() } },
      });
      if (open >= s.openMax) {
        throw new AppError('TOO_MANY_OPEN_SESSIONS', `Too many open triples/presign runs for this wallet (at most ${s.openMax}); finish or abort one first`);
      }
      await tx.tssSession.create({
        data: {
          id: s.id,
          userId: s.userId,
          walletId: s.walletId,
          kind: s.kind,
          status: 'ACTIVE',
          state: s.state as unknown as Prisma.InputJsonValue,
          stateVersion: 1,
          expiresAt: s.expiresAt,
          customerId: s.customerId,
          apiKeyId: s.apiKeyId,
          ...(s.stage ? { stages: { create: { name: s.stage, status: 'COMPLETED', completedAt: new Date() } } } : {}),
        },
      });
    },

    /**
     * The compare-and-swap of one step: stores the new state (and ends the session when
     * `status` is COMPLETED) only if nobody stepped from `fromVersion` before, and records the
     * stage; inside `tx` when given. False when another request won.
     */
    async advance(
      s: { id: string; fromVersion: number; state: StepSessionState; stage: string; status?: 'COMPLETED' },
      tx: Tx | PrismaClient = db,
    ): Promise<boolean> {
      const { count } = await tx.tssSession.updateMany({
        where: { id: s.id, status: 'ACTIVE', stateVersion: s.fromVersion, expiresAt: { gt: new Date() } },
        data: {
          state: s.state as unknown as Prisma.InputJsonValue,
          stateVersion: s.fromVersion + 1,
          ...(s.status ? { status: s.status, completedAt: new Date() } : {}),
        },
      });
      if (count !== 1) return false;
      await tx.tssStage.create({ data: { sessionId: s.id, name: s.stage, status: 'COMPLETED', completedAt: new Date() } });
      return true;
    },

    /** Runs `work` in one transaction (pool rows written together with the final step). */
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return db.$transaction(work, { timeout: 20_000 });
    },
  };
}

export type StepSessionRepo = ReturnType<typeof stepSessionRepo>;
