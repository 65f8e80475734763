import type { KeyShareNodeStatus, PrismaClient } from '@svc/db';

const withShareCount = {
  _count: { select: { walletStates: { where: { status: 'ACTIVE' as const } } } },
};

export function ksNodesRepo(db: PrismaClient) {
  const find = (id: string) => db.keyShareNode.findUnique({ where: { id }, include: withShareCount });
  return {
    find,

    list() {
      return db.keyShareNode.findMany({ orderBy: { name: 'asc' }, include: withShareCount });
    },

    insert(name: string, endpoint: string) {
      return db.keyShareNode.create({ data: { name, endpoint }, include: withShareCount });
    },

    /** Updates a node if it exists; null otherwise. */
    async update(id: string, data: { endpoint?: string; status?: KeyShareNodeStatus }) {
      const { count } = await db.keyShareNode.updateMany({ where: { id }, data });
      return count === 1 ? find(id) : null;
    },

    /** Deletes a node only while it is INACTIVE (checked in the same statement). */
    async deleteInactive(id: string): Promise<boolean> {
      const { count } = await db.keyShareNode.deleteMany({ where: { id, status: 'INACTIVE' } });
      return count === 1;
    },
  };
}

export type KsNodesRepo = ReturnType<typeof ksNodesRepo>;
