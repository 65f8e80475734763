/** Shapes of tss-api answers the SDK reads (spec §2, docs/api/tss-ed25519.md, docs/keyshare.md). */

export type Curve = 'ed25519' | 'secp256k1';

export interface WalletInfo {
  curve: Curve;
  wallet_id: string;
  /** Hex: 32-byte RFC 8032 key (ed25519) or 33-byte compressed SEC1 (secp256k1). */
  public_key: string;
}

/** Spec §2 sign-in result, with tss-api's additions (user_id, auth_type, wallets). */
export interface SignInResult {
  token: string;
  user: {
    email: string;
    wallet_id: string;
    public_key: string;
    user_id: string;
    auth_type: string;
    wallets: WalletInfo[];
  };
}

export type WalletStatus = 'ACTIVE' | 'UNRECOVERABLE_DATA_LOSS' | 'NOT_REGISTERED';

export interface KeyshareNodeStatus {
  name: string;
  endpoint: string;
  wallet_status: WalletStatus;
  node_status?: 'ONLINE' | 'UNREACHABLE';
}

/** Spec §2 user check result. */
export interface UserCheckResult {
  exists: boolean;
  keyshare_node_meta: { threshold: number; nodes: KeyshareNodeStatus[] };
  needs_reshare: boolean;
  reshare_reasons?: string[];
  active_nodes_below_threshold: boolean;
}

/** The server's seed part of one wallet (recovery and export, behind an ID token). */
export interface ServerSeedPart extends WalletInfo {
  seed_part: string;
}
