import { sssNodeXCoordinate } from '@svc/crypto';
import { isUniqueViolation, type KeyShareNode } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { KsNodesRepo } from './repo.js';

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

/** The registry of key share nodes. */
export function ksNodesService(repo: KsNodesRepo) {
  return {
    async all() {
      return { nodes: (await repo.list()).map(nodeView) };
    },

    async create(name: string, endpoint: string) {
      // A node's Shamir x-coordinate comes from its name (sssNodeXCoordinate: 255 values, so two
      // names can meet). Two nodes at one x make every backup and heal fail, so the name is
      // refused while any registered node, active or not, has that x.
      const x = sssNodeXCoordinate(name);
      const twin = (await repo.list()).find((n) => n.name !== name && sssNodeXCoordinate(n.name) === x);
      if (twin) throw new AppError('INVALID_REQUEST', `name gives key share node ${twin.name}'s Shamir x-coordinate (${x}): choose another name`);
      try {
        return nodeView(await repo.insert(name, endpoint));
      } catch (error) {
        if (isUniqueViolation(error, 'name')) throw new AppError('KS_NODE_ALREADY_EXISTS', 'A key share node with this name already exists');
        throw error;
      }
    },

    async change(id: string, data: { endpoint?: string; status?: 'ACTIVE' | 'INACTIVE' }) {
      const node = await repo.update(id, data);
      if (!node) throw notFound();
      return nodeView(node);
    },

    /** Deleting needs the node deactivated first, so a node in use is never removed by one click. */
    async remove(id: string) {
      if (await repo.deleteInactive(id)) return { node_id: id };
      if (await repo.find(id)) throw new AppError('KS_NODE_ACTIVE', 'Deactivate the key share node before deleting it');
      throw notFound();
    },
  };
}

export type KsNodesService = ReturnType<typeof ksNodesService>;
