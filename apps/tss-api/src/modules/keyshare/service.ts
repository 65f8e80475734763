import { AppError } from '@svc/envelope';
import { httpNodeProbe, type NodeProbe, type ProbeResult } from './node-probe.js';
import type { KeyshareRepo, NodeRow } from './repo.js';

export type WalletStatus = 'ACTIVE' | 'UNRECOVERABLE_DATA_LOSS' | 'NOT_REGISTERED';
/** Whether tss-api could reach the node just now (an addition to the spec's node fields). */
export type NodeStatus = 'ONLINE' | 'UNREACHABLE';

export interface KeyshareNodeMeta {
  name: string;
  endpoint: string;
  wallet_status: WalletStatus;
  node_status?: NodeStatus;
}

/** keyshare_node_meta and the reshare flags of the user check result (spec §2, §3). */
export interface KeyshareCheck {
  keyshare_node_meta: { threshold: number; nodes: KeyshareNodeMeta[] };
  needs_reshare: boolean;
  reshare_reasons?: ReshareReason[];
  active_nodes_below_threshold: boolean;
}

export interface ResharedKeyShare {
  name: string;
  endpoint: string;
}

/**
 * What a node's answer means for one wallet, given what the main database recorded:
 * - it holds the share: ACTIVE, except a recorded data loss stays until user/reshare confirms
 *   the fresh share (a share that appeared by itself is not trusted to be the user's);
 * - it lacks a share recorded as registered: UNRECOVERABLE_DATA_LOSS (and recorded so);
 * - no answer: the recorded status, with node_status UNREACHABLE.
 */
function walletStatusOf(recorded: WalletStatus, answer: ProbeResult): WalletStatus {
  if (answer === undefined) return recorded;
  if (answer) return recorded === 'UNRECOVERABLE_DATA_LOSS' ? recorded : 'ACTIVE';
  return recorded === 'NOT_REGISTERED' ? recorded : 'UNRECOVERABLE_DATA_LOSS';
}

/** One node's status over all of a user's wallets: any loss wins, ACTIVE only when all are. */
function combine(statuses: WalletStatus[]): WalletStatus {
  if (statuses.includes('UNRECOVERABLE_DATA_LOSS')) return 'UNRECOVERABLE_DATA_LOSS';
  return statuses.length > 0 && statuses.every((s) => s === 'ACTIVE') ? 'ACTIVE' : 'NOT_REGISTERED';
}

/**
 * reshare_reasons: UNRECOVERABLE_NODE_DATA_LOSS is the spec's; MISSING_NODE_BACKUP is ours: a
 * node that answers it holds no share of an existing wallet and never confirmed one (it was
 * down at keygen, or was added later). Both are repaired the same way (heal, then user/reshare).
 */
export type ReshareReason = 'UNRECOVERABLE_NODE_DATA_LOSS' | 'MISSING_NODE_BACKUP';

type Wallet = { id: string; curve: 'ed25519' | 'secp256k1'; publicKey: string };

const sameEndpoint = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** Key share node registry and per-wallet node statuses (docs/keyshare.md, "Main API"). */
export function keyshareService(repo: KeyshareRepo, threshold: number, options: { probe?: NodeProbe } = {}) {
  const probe = options.probe ?? httpNodeProbe();

  return {
    /**
     * Asks every active node, in parallel, whether it holds each wallet's share (one call per
     * node and wallet, each bounded by the probe's timeout), and records newly found losses.
     * A user without wallets (signup) is not probed: every node NOT_REGISTERED (spec §3 rule 1).
     */
    async checkWallets(walletIds: string[] | null): Promise<KeyshareCheck> {
      const nodes = await repo.activeNodes();
      if (!walletIds || walletIds.length === 0) {
        return {
          keyshare_node_meta: { threshold, nodes: nodes.map((n) => ({ name: n.name, endpoint: n.endpoint, wallet_status: 'NOT_REGISTERED' as const })) },
          needs_reshare: false,
          active_nodes_below_threshold: false,
        };
      }
      const [wallets, recorded] = await Promise.all([repo.walletsByIds(walletIds), repo.statusesOf(walletIds)]);
      const recordedOf = (walletId: string, nodeId: string): WalletStatus =>
        recorded.find((s) => s.walletId === walletId && s.nodeId === nodeId)?.status ?? 'NOT_REGISTERED';

      const missing = new Set<string>();
      const metaNodes = await Promise.all(
        nodes.map(async (node): Promise<KeyshareNodeMeta> => {
          const answers = await Promise.all(wallets.map((w) => probe(node, { curve: w.curve, publicKey: w.publicKey })));
          const statuses = wallets.map((w, i) => walletStatusOf(recordedOf(w.id, node.id), answers[i]));
          const lostNow = wallets.filter((w, i) => statuses[i] === 'UNRECOVERABLE_DATA_LOSS' && recordedOf(w.id, node.id) !== 'UNRECOVERABLE_DATA_LOSS');
          if (lostNow.length) await repo.setStatuses(lostNow.map((w) => w.id), [node.id], 'UNRECOVERABLE_DATA_LOSS');
          // A node now confirming a share nothing recorded (backed up after keygen) is recorded, so a later loss shows.
          const confirmedNow = wallets.filter((w, i) => answers[i] === true && recordedOf(w.id, node.id) === 'NOT_REGISTERED');
          if (confirmedNow.length) await repo.setStatuses(confirmedNow.map((w) => w.id), [node.id], 'ACTIVE');
          if (wallets.some((w, i) => answers[i] === false && statuses[i] === 'NOT_REGISTERED')) missing.add(node.name);
          const reachable = answers.every((a) => a !== undefined);
          return { name: node.name, endpoint: node.endpoint, wallet_status: combine(statuses), node_status: reachable ? 'ONLINE' : 'UNREACHABLE' };
        }),
      );
      const reasons: ReshareReason[] = [];
      if (metaNodes.some((n) => n.wallet_status === 'UNRECOVERABLE_DATA_LOSS')) reasons.push('UNRECOVERABLE_NODE_DATA_LOSS');
      if (missing.size > 0) reasons.push('MISSING_NODE_BACKUP');
      // Only nodes that answered just now and hold every share count: a down node cannot serve a recovery.
      const active = metaNodes.filter((n) => n.wallet_status === 'ACTIVE' && n.node_status === 'ONLINE').length;
      return {
        keyshare_node_meta: { threshold, nodes: metaNodes },
        needs_reshare: reasons.length > 0,
        ...(reasons.length > 0 ? { reshare_reasons: reasons } : {}),
        active_nodes_below_threshold: active < threshold,
      };
    },

    /**
     * At keygen (the client has registered its seed part shares on the nodes just before):
     * asks every active node, in parallel, and records ACTIVE only where the node confirms it
     * holds the share. A node that was down or refused stays NOT_REGISTERED, which user/check
     * reports as a missing backup.
     */
    async recordConfirmedBackups(wallets: Wallet[]): Promise<void> {
      const nodes = await repo.activeNodes();
      await Promise.all(
        nodes.map(async (node) => {
          const answers = await Promise.all(wallets.map((w) => probe(node, { curve: w.curve, publicKey: w.publicKey })));
          const confirmed = wallets.filter((_, i) => answers[i] === true).map((w) => w.id);
          if (confirmed.length) await repo.setStatuses(confirmed, [node.id], 'ACTIVE');
        }),
      );
    },

    /**
     * user/reshare: each named node must be a registered active node (same endpoint) and must
     * answer that it now holds the wallet's share; only then are they all marked ACTIVE.
     */
    async confirmReshare(wallet: Wallet, reshared: ResharedKeyShare[]): Promise<void> {
      const nodes = await repo.activeNodes();
      const named: NodeRow[] = [];
      for (const entry of reshared) {
        const node = nodes.find((n) => n.name === entry.name);
        if (!node || !sameEndpoint(node.endpoint, entry.endpoint)) throw new AppError('INVALID_REQUEST', `Unknown key share node: ${entry.name}`);
        if (named.includes(node)) throw new AppError('INVALID_REQUEST', `Key share node listed twice: ${entry.name}`);
        named.push(node);
      }
      const answers = await Promise.all(named.map((n) => probe(n, { curve: wallet.curve, publicKey: wallet.publicKey })));
      named.forEach((node, i) => {
        if (answers[i] === undefined) throw new AppError('UPSTREAM_UNAVAILABLE', `Key share node ${node.name} is unavailable`);
        if (!answers[i]) throw new AppError('KEY_SHARE_NOT_FOUND', `Key share node ${node.name} does not hold the share`);
      });
      await repo.setStatuses([wallet.id], named.map((n) => n.id), 'ACTIVE');
    },

    seedNodes: repo.seedNodes,
  };
}

export type KeyshareService = ReturnType<typeof keyshareService>;
