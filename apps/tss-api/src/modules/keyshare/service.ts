import type { VerifiedIdentity } from '@svc/auth';
import { AppError } from '@svc/envelope';
import type { IdTokenWitness } from '../../kernel/id-token-witness.js';
import type { BackedUpWallet, KeyshareCheck, KeyshareNodeMeta, ReshareReason, WalletStatus } from '../../kernel/key-share-backups.js';
import type { UsersRepo } from '../../kernel/users-repo.js';
import { httpNodeProbe, type NodeProbe, type ProbeResult } from './node-probe.js';
import type { KeyshareRepo, NodeRow } from './repo.js';

export interface ResharedKeyShare {
  name: string;
  endpoint: string;
}

/**
 * What a node's answer means for one wallet, given what the main database recorded. Only keygen
 * (the nodes confirming right after the owner registered) and user/reshare (the owner, signed in,
 * naming the nodes it re-created shares on) make a node ACTIVE. The node's check is public and
 * says only that *someone* registered a share for the key: anyone who knows a public key can
 * register junk for it on a node that lacks the owner's share, so a share that appeared by itself
 * is not trusted to be the owner's.
 * - recorded ACTIVE and the node holds a share: ACTIVE;
 * - recorded ACTIVE and it holds none: UNRECOVERABLE_DATA_LOSS (and recorded so);
 * - recorded NOT_REGISTERED or UNRECOVERABLE_DATA_LOSS: stays so, whatever the node says, until
 *   user/reshare confirms;
 * - no answer: the recorded status, with node_status UNREACHABLE;
 * - not asked (the email's budget of node checks is spent): the recorded status, with node_status
 *   NOT_CHECKED.
 */
function walletStatusOf(recorded: WalletStatus, answer: ProbeResult): WalletStatus {
  if (answer === undefined || recorded !== 'ACTIVE') return recorded;
  return answer ? 'ACTIVE' : 'UNRECOVERABLE_DATA_LOSS';
}

/** One node's status over all of a user's wallets: any loss wins, ACTIVE only when all are. */
function combine(statuses: WalletStatus[]): WalletStatus {
  if (statuses.includes('UNRECOVERABLE_DATA_LOSS')) return 'UNRECOVERABLE_DATA_LOSS';
  return statuses.length > 0 && statuses.every((s) => s === 'ACTIVE') ? 'ACTIVE' : 'NOT_REGISTERED';
}

const sameEndpoint = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** Key share node registry and per-wallet node statuses (docs/keyshare.md, "Main API"); to the other modules, kernel/key-share-backups.ts. */
export function keyshareService(repo: KeyshareRepo, threshold: number, deps: { users: UsersRepo; idTokens: IdTokenWitness; probe?: NodeProbe }) {
  const probe = deps.probe ?? httpNodeProbe();

  /**
   * user/reshare: each named node must be a registered active node (same endpoint) and must
   * answer that it now holds the wallet's share; only then are they all marked ACTIVE.
   */
  async function confirmReshare(wallet: BackedUpWallet, reshared: ResharedKeyShare[]): Promise<void> {
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
  }

  return {
    /**
     * Asks every active node, in parallel, whether it holds each wallet's share (one call per
     * node and wallet, each bounded by the probe's timeout), and records newly found losses.
     * A user without wallets (signup) is not probed: every node NOT_REGISTERED (spec §3 rule 1).
     * With `askNodes: false` no node is asked: the recorded statuses, each node NOT_CHECKED.
     */
    async checkWallets(walletIds: string[] | null, { askNodes = true }: { askNodes?: boolean } = {}): Promise<KeyshareCheck> {
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
          if (!askNodes) {
            return { name: node.name, endpoint: node.endpoint, wallet_status: combine(wallets.map((w) => recordedOf(w.id, node.id))), node_status: 'NOT_CHECKED' };
          }
          const answers = await Promise.all(wallets.map((w) => probe(node, { curve: w.curve, publicKey: w.publicKey })));
          const statuses = wallets.map((w, i) => walletStatusOf(recordedOf(w.id, node.id), answers[i]));
          const lostNow = wallets.filter((w, i) => statuses[i] === 'UNRECOVERABLE_DATA_LOSS' && recordedOf(w.id, node.id) !== 'UNRECOVERABLE_DATA_LOSS');
          if (lostNow.length) await repo.setStatuses(lostNow.map((w) => w.id), [node.id], 'UNRECOVERABLE_DATA_LOSS');
          // A backup the owner never confirmed is missing, whether or not the node holds *a* share
          // for the key (walletStatusOf): heal re-registers it (the node replaces the owner's own
          // share, refuses anyone else's) and user/reshare records it.
          if (wallets.some((w, i) => answers[i] !== undefined && statuses[i] === 'NOT_REGISTERED')) missing.add(node.name);
          const reachable = answers.every((a) => a !== undefined);
          return { name: node.name, endpoint: node.endpoint, wallet_status: combine(statuses), node_status: reachable ? 'ONLINE' : 'UNREACHABLE' };
        }),
      );
      const reasons: ReshareReason[] = [];
      if (metaNodes.some((n) => n.wallet_status === 'UNRECOVERABLE_DATA_LOSS')) reasons.push('UNRECOVERABLE_NODE_DATA_LOSS');
      if (missing.size > 0) reasons.push('MISSING_NODE_BACKUP');
      // Only nodes that answered just now and hold every share count (a down node cannot serve a
      // recovery); nodes not asked count as recorded.
      const active = metaNodes.filter((n) => n.wallet_status === 'ACTIVE' && n.node_status !== 'UNREACHABLE').length;
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
    async recordConfirmedBackups(wallets: BackedUpWallet[]): Promise<void> {
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
     * user/reshare (spec 4.1 rules 6-7), for the user of the ID token: `publicKey` names one of
     * their wallets, `reshared` the nodes the client re-created shares on (user/check's
     * keyshare_node_meta.nodes elements). One confirmation per ID token and wallet.
     */
    async reshare(identity: VerifiedIdentity, publicKey: string, reshared: Record<string, unknown>[]): Promise<null> {
      const user = await deps.users.byIdentity(identity.authType, identity.subject);
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      const wallet = user.wallets.find((w) => w.publicKey === publicKey);
      if (!wallet) throw new AppError('INVALID_REQUEST', 'Invalid public key');
      const elements = reshared.map((e) => {
        const extra = Object.keys(e).filter((k) => k !== 'name' && k !== 'endpoint');
        if (extra.length) throw new AppError('INVALID_REQUEST', `Unknown field: reshared_key_shares[].${extra[0]}`);
        return { name: e.name, endpoint: e.endpoint } as ResharedKeyShare;
      });
      // The SDK heals each wallet with the same token; recorded first so concurrent replays are
      // refused, taken back if the check fails so the client may retry.
      const purpose = `reshare:${wallet.id}`;
      await deps.idTokens.record(identity, purpose, user.id);
      try {
        await confirmReshare(wallet, elements);
      } catch (error) {
        await deps.idTokens.forget(identity, purpose);
        throw error;
      }
      return null;
    },

    seedNodes: repo.seedNodes,
  };
}

export type KeyshareService = ReturnType<typeof keyshareService>;
