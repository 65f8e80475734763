import { isUniqueViolation, type KeyShareNode, type PrismaClient } from '@svc/db';
import { AppError } from '@svc/envelope';
import { deleteInactiveNode, findNode, insertNode, listNodes, updateNode } from './repo.js';

type NodeRow = KeyShareNode & { _count: { walletStates: number } };

export function nodeView(n: NodeRow) {
  return {
    node_id: n.id,
    name: n.name,
    endpoint: n.endpoint,
    status: n.status,
    active_wallet_share_count: n._count.walletStates,
    created_at: n.createdAt.toISOString(),
    updated_at: n.updatedAt.toISOString(),
  };
}

const notFound = () => new AppError('KS_NODE_NOT_FOUND', 'Key share node not found');

export async function getAllNodes(db: PrismaClient) {
  return { nodes: (await listNodes(db)).map(nodeView) };
}

export async function createNode(db: PrismaClient, name: string, endpoint: string) {
  try {
    return nodeView(await insertNode(db, name, endpoint));
  } catch (error) {
    if (isUniqueViolation(error, 'name')) throw new AppError('KS_NODE_ALREADY_EXISTS', 'A key share node with this name already exists');
    throw error;
  }
}

export async function changeNode(db: PrismaClient, id: string, data: { endpoint?: string; status?: 'ACTIVE' | 'INACTIVE' }) {
  const node = await updateNode(db, id, data);
  if (!node) throw notFound();
  return nodeView(node);
}

/** Deleting needs the node deactivated first, so a node in use is never removed by one click. */
export async function removeNode(db: PrismaClient, id: string) {
  if (await deleteInactiveNode(db, id)) return { node_id: id };
  if (await findNode(db, id)) throw new AppError('KS_NODE_ACTIVE', 'Deactivate the key share node before deleting it');
  throw notFound();
}
