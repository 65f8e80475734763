import type { KeyshareRepo } from './repo.js';

export type WalletStatus = 'ACTIVE' | 'UNRECOVERABLE_DATA_LOSS' | 'NOT_REGISTERED';

/** keyshare_node_meta and the reshare flags of the user check result (spec §2, §3). */
export interface KeyshareCheck {
  keyshare_node_meta: { threshold: number; nodes: { name: string; endpoint: string; wallet_status: WalletStatus }[] };
  needs_reshare: boolean;
  reshare_reasons?: string[];
  active_nodes_below_threshold: boolean;
}

/**
 * Minimal until [keyshare]: node statuses come from the registry's rows (written at keygen
 * and reshare), not yet from asking the nodes.
 */
export function keyshareService(repo: KeyshareRepo, threshold: number) {
  return {
    async checkWallets(walletIds: string[] | null): Promise<KeyshareCheck> {
      const nodes = await repo.activeNodes();
      const statuses = walletIds ? await repo.statusesOf(walletIds) : [];
      const metaNodes = nodes.map((node) => {
        let status: WalletStatus = 'NOT_REGISTERED';
        if (walletIds && walletIds.length > 0) {
          const mine = walletIds.map((w) => statuses.find((s) => s.walletId === w && s.nodeId === node.id)?.status ?? 'NOT_REGISTERED');
          if (mine.includes('UNRECOVERABLE_DATA_LOSS')) status = 'UNRECOVERABLE_DATA_LOSS';
          else if (mine.every((s) => s === 'ACTIVE')) status = 'ACTIVE';
        }
        return { name: node.name, endpoint: node.endpoint, wallet_status: status };
      });
      const lost = metaNodes.some((n) => n.wallet_status === 'UNRECOVERABLE_DATA_LOSS');
      const active = metaNodes.filter((n) => n.wallet_status === 'ACTIVE').length;
      return {
        keyshare_node_meta: { threshold, nodes: metaNodes },
        needs_reshare: lost,
        ...(lost ? { reshare_reasons: ['UNRECOVERABLE_NODE_DATA_LOSS'] } : {}),
        // Only meaningful for an existing user: at signup nothing is registered yet (spec §3 rule 1).
        active_nodes_below_threshold: walletIds !== null && walletIds.length > 0 && active < threshold,
      };
    },

    /** At keygen the client registers its seed part shares on every listed node. */
    async markRegistered(walletIds: string[]): Promise<void> {
      const nodes = await repo.activeNodes();
      await repo.setStatuses(walletIds, nodes.map((n) => n.id), 'ACTIVE');
    },

    /** After user/reshare: the named nodes hold fresh shares again. Returns the unknown names. */
    async markReshared(walletIds: string[], nodeNames: string[]): Promise<string[]> {
      const nodes = await repo.activeNodes();
      const known = nodes.filter((n) => nodeNames.includes(n.name));
      await repo.setStatuses(walletIds, known.map((n) => n.id), 'ACTIVE');
      return nodeNames.filter((name) => !known.some((n) => n.name === name));
    },

    seedNodes: repo.seedNodes,
  };
}

export type KeyshareService = ReturnType<typeof keyshareService>;
