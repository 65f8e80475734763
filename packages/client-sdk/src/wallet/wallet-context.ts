import type { IdTokenSession, KeyshareNodeClient } from '@svc/keyshare-client';
import type { Curve, SignInResult, WalletInfo } from '@svc/contract';
import { SvcError } from '../errors.js';
import type { HttpClient } from '../http/http-client.js';
import type { ShareStorage } from '../storage/share-storage.js';
import type { AuthedClient } from './authed-client.js';
import type { EcdsaPools } from './ecdsa-pools.js';
import type { SvcWalletOptions } from './options.js';
import type { SessionWriter } from './session.js';

/** The signed-in account. */
export type Account = SignInResult['user'];

/** The login provider's ID token of the current sign-in, committed to the key share nodes. */
export interface IdSession {
  session: IdTokenSession;
  /** Nodes that accepted this token's commit: the only ones it may be shown to. */
  nodes: KeyshareNodeClient[];
  threshold: number;
  email?: string;
  issuedAt?: number;
}

/**
 * What one SvcWallet holds, shared by its flows (sign-in, keygen, signing, recovery, heal,
 * export): its clients and storage, fixed at construction, and the sign-in state they change.
 */
export class WalletContext {
  /** The current ID token session (sign-in sets it, sign-out destroys it). */
  id: IdSession | undefined;
  /** The account of the last sign-in result (every new service token updates it). */
  account: Account | undefined;

  constructor(
    readonly options: SvcWalletOptions,
    readonly http: HttpClient,
    readonly api: AuthedClient,
    readonly storage: ShareStorage,
    readonly ecdsaPools: EcdsaPools,
    /** Persists every new service token (and its account) to `storage`, in order. */
    readonly session: SessionWriter,
  ) {}

  requireIdSession(): IdSession {
    if (!this.id) throw new SvcError('NOT_SIGNED_IN', 'sign in with an ID token first');
    return this.id;
  }

  requireAccount(): Account {
    if (!this.account) throw new SvcError('NOT_SIGNED_IN', 'sign in first');
    return this.account;
  }
}

/** The account's wallet on `curve`. */
export function walletOf(wallets: WalletInfo[], curve: Curve): WalletInfo {
  const w = wallets.find((x) => x.curve === curve);
  if (!w) throw new SvcError('WALLET_NOT_FOUND', `the account has no ${curve} wallet`);
  return w;
}
