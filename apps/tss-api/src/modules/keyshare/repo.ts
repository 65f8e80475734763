import type { Curve, PrismaClient, WalletNodeStatus } from '@svc/db';

export interface NodeRow {
  id: string;
  name: string;
  endpoint: string;
}

/*
 * The key share node registry as tss-api sees it. The [keyshare] work (node health, reshare
 * bookkeeping) extends this module; the rest of the app only calls keyshareService.
 */
export function keyshareRepo(db: PrismaClient) {
  return {
    /** Registers the nodes of KEYSHARE_NODES (endpoint updated when it changed). */
    async seedNodes(nodes: { name: string; endpoint: string }[]): Promise<void> {
      for (const node of nodes) {
        await db.keyShareNode.upsert({ where: { name: node.name }, create: node, update: { endpoint: node.endpoint } });
      }
    },

    activeNodes(): Promise<NodeRow[]> {
      return db.keyShareNode.findMany({ where: { status: 'ACTIVE' }, orderBy: { name: 'asc' }, select: { id: true, name: true, endpoint: true } });
    },

    walletsByIds(walletIds: string[]): Promise<{ id: string; curve: Curve; publicKey: string }[]> {
      return db.wallet.findMany({ where: { id: { in: walletIds } }, select: { id: true, curve: true, publicKey: true } });
    },

    async statusesOf(walletIds: string[]): Promise<{ walletId: string; nodeId: string; status: WalletNodeStatus }[]> {
      if (walletIds.length === 0) return [];
      return db.walletKeyShareNodeStatus.findMany({ where: { walletId: { in: walletIds } }, select: { walletId: true, nodeId: true, status: true } });
    },

    async setStatuses(walletIds: string[], nodeIds: string[], status: WalletNodeStatus): Promise<void> {
      await db.$transaction(
        walletIds.flatMap((walletId) =>
          nodeIds.map((nodeId) =>
            db.walletKeyShareNodeStatus.upsert({
              where: { walletId_nodeId: { walletId, nodeId } },
              create: { walletId, nodeId, status },
              update: { status },
            }),
          ),
        ),
      );
    },
  };
}

export type KeyshareRepo = ReturnType<typeof keyshareRepo>;
