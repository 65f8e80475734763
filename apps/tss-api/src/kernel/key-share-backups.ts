/*
 * The backups of wallets on the key share nodes, as the rest of tss-api asks about them:
 * user/check reports them (users) and keygen records the ones the nodes confirm. The key share
 * node registry (modules/keyshare) answers; src/app.ts hands its service to the others.
 */

export type WalletStatus = 'ACTIVE' | 'UNRECOVERABLE_DATA_LOSS' | 'NOT_REGISTERED';
/**
 * Whether tss-api could reach the node just now (an addition to the spec's node fields), or
 * NOT_CHECKED: it did not ask (the email's budget of node checks is spent, node-check-budget.ts), and
 * wallet_status is the recorded one.
 */
export type NodeStatus = 'ONLINE' | 'UNREACHABLE' | 'NOT_CHECKED';

export interface KeyshareNodeMeta {
  name: string;
  endpoint: string;
  wallet_status: WalletStatus;
  node_status?: NodeStatus;
}

/**
 * reshare_reasons: UNRECOVERABLE_NODE_DATA_LOSS is the spec's; MISSING_NODE_BACKUP is ours: a
 * node that answers it holds no share of an existing wallet and never confirmed one (it was
 * down at keygen, or was added later). Both are repaired the same way (heal, then user/reshare).
 */
export type ReshareReason = 'UNRECOVERABLE_NODE_DATA_LOSS' | 'MISSING_NODE_BACKUP';

/** keyshare_node_meta and the reshare flags of the user check result (spec §2, §3). */
export interface KeyshareCheck {
  keyshare_node_meta: { threshold: number; nodes: KeyshareNodeMeta[] };
  needs_reshare: boolean;
  reshare_reasons?: ReshareReason[];
  active_nodes_below_threshold: boolean;
}

/** A wallet as the nodes know it: they hold its backup under the curve and public key. */
export interface BackedUpWallet {
  id: string;
  curve: 'ed25519' | 'secp256k1';
  publicKey: string;
}

export interface KeyShareBackups {
  /** The nodes' status for the user's wallets (null: no user yet); `askNodes: false` answers from the database alone. */
  checkWallets(walletIds: string[] | null, options?: { askNodes?: boolean }): Promise<KeyshareCheck>;
  /** After keygen: records the wallets the nodes confirm they back up. */
  recordConfirmedBackups(wallets: BackedUpWallet[]): Promise<void>;
}
