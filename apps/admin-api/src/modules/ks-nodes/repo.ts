import type { KeyShareNodeStatus, PrismaClient } from '@svc/db';

const withShareCount = {
  _count: { select: { walletStates: { where: { status: 'ACTIVE' as const } } } },
};

export function listNodes(db: PrismaClient) {
  return db.keyShareNode.findMany({ orderBy: { name: 'asc' }, include: withShareCount });
}

export function findNode(db: PrismaClient, id: string) {
  return db.keyShareNode.findUnique({ where: { id }, include: withShareCount });
}

export function insertNode(db: PrismaClient, name: string, endpoint: string) {
  return db.keyShareNode.create({ data: { name, endpoint }, include: withShareCount });
}

/** Updates a node if it exists; null otherwise. */
export async function updateNode(db: PrismaClient, id: string, data: { endpoint?: string; status?: KeyShareNodeStatus }) {
  const { count } = await db.keyShareNode.updateMany({ where: { id }, data });
  return count === 1 ? findNode(db, id) : null;
}

/** Deletes a node only while it is INACTIVE (checked in the same statement). */
export async function deleteInactiveNode(db: PrismaClient, id: string): Promise<boolean> {
  const { count } = await db.keyShareNode.deleteMany({ where: { id, status: 'INACTIVE' } });
  return count === 1;
}
