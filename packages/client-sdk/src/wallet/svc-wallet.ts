import type { Curve, SignInResult, UserCheckResult } from '@svc/contract';
import { HttpClient } from '../http/http-client.js';
import type { Signers } from '../signers.js';
import { MemoryShareStorage, type ShareStorage } from '../storage/share-storage.js';
import { AuthedClient } from './authed-client.js';
import { EcdsaPools } from './ecdsa-pools.js';
import type { ExportedKeys } from './export.js';
import type { SvcWalletOptions } from './options.js';
import { lazyModule } from '../lazy-module.js';
import type { FlowOptions } from './abort.js';
import { readSession, SessionWriter } from './session.js';
import {
  checkNodes,
  requestEmailCode,
  restore,
  resume,
  signIn,
  signOut,
  verifyEmailCode,
  type SignInOutcome,
  type SignOutOptions,
  type SignOutResult,
} from './sign-in.js';
import { signers, warmUp } from './signing.js';
import { WalletContext } from './wallet-context.js';

export type { SvcWalletOptions } from './options.js';
export type { SignInOutcome, SignInStatus, SignOutOptions, SignOutResult } from './sign-in.js';
export type { FlowOptions } from './abort.js';
export type { ExportedKeys } from './export.js';

/**
 * The flows a device runs once (keygen, recovery, heal, export: key dealing, Shamir splitting
 * and recombination, the nodes' backup and recovery calls) are loaded when first called; a
 * returning user on the same device needs only sign-in and signing.
 */
const onceFlows = lazyModule(() => import('./once-flows.js'), 'the keygen and recovery flows');

/** The curves keygen creates by default: one wallet of each. */
const CURVES: Curve[] = ['ed25519', 'secp256k1'];

/**
 * The client (P0) of the wallet service: sign-in, keygen with key share node backups,
 * threshold signers, recovery, heal and export. See docs/client-sdk.md. Each flow lives in
 * its own file (sign-in.ts, keygen.ts, signing.ts, recovery.ts, heal.ts, export.ts) over the
 * state this class holds (WalletContext). Every flow takes `{ signal }` (an AbortSignal): an
 * aborted flow ends in SvcError ABORTED with the share storage unchanged.
 */
export class SvcWallet {
  readonly http: HttpClient;
  readonly api: AuthedClient;
  readonly storage: ShareStorage;
  private readonly ctx: WalletContext;

  constructor(options: SvcWalletOptions) {
    this.http = new HttpClient({
      gatewayUrl: options.gatewayUrl,
      apiKey: options.apiKey,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.storage = options.storage ?? new MemoryShareStorage();
    const session = new SessionWriter(this.storage, (err) => options.onBackgroundError?.(err));
    this.api = new AuthedClient(this.http, {
      ...(options.refreshMarginSeconds !== undefined ? { refreshMarginSeconds: options.refreshMarginSeconds } : {}),
      onToken: (result) => {
        this.ctx.account = result.user;
        session.save(result);
        options.onToken?.(result);
      },
      // Another tab over the same storage that refreshed the session revoked this tab's token:
      // take the token it stored, if it is still this account's.
      adopt: async (used) => {
        const stored = await readSession(this.storage);
        const mine = stored && stored.token !== used && stored.user.user_id === this.ctx.account?.user_id;
        return mine ? { token: stored.token, user: stored.user } : undefined;
      },
      onSessionExpired: (err) => {
        this.ctx.account = undefined;
        this.ctx.ecdsaPools.clear();
        session.forget();
        options.onSessionExpired?.(err);
      },
    });
    const ecdsaPools = new EcdsaPools(this.api, {
      ...(options.presignaturePoolSize !== undefined ? { target: options.presignaturePoolSize } : {}),
      ...(options.onBackgroundError ? { onError: options.onBackgroundError } : {}),
    });
    this.ctx = new WalletContext(options, this.http, this.api, this.storage, ecdsaPools, session);
  }

  /** The signed-in account, if any. */
  get user(): SignInResult['user'] | undefined {
    return this.ctx.account;
  }

  /** Email login, step 1: the service mails a one-time code. */
  requestEmailCode(email: string, options?: FlowOptions): Promise<void> {
    return requestEmailCode(this.ctx, email, options);
  }

  /** Email login, step 2: the code for an ID token (then pass it to signIn). */
  verifyEmailCode(email: string, code: string, options?: FlowOptions): Promise<string> {
    return verifyEmailCode(this.ctx, email, code, options);
  }

  async signInWithEmail(email: string, code: string, options?: FlowOptions): Promise<SignInOutcome> {
    return this.signIn(await this.verifyEmailCode(email, code, options), options);
  }

  /** Signs in with a login provider's ID token (sign-in.ts). */
  signIn(idToken: string, options?: FlowOptions): Promise<SignInOutcome> {
    return signIn(this.ctx, idToken, options);
  }

  /**
   * Continues the session stored in `storage` by an earlier sign-in (e.g. before a reload);
   * null when there is none. A refused one is SESSION_EXPIRED (and onSessionExpired).
   */
  restore(options?: FlowOptions): Promise<SignInOutcome | null> {
    return restore(this.ctx, options);
  }

  /** Continues with a service JWT the app kept itself: refreshed through signin_silently. */
  resume(jwt: string, options?: FlowOptions): Promise<SignInOutcome> {
    return resume(this.ctx, jwt, options);
  }

  /**
   * Revokes the service token at the server, then clears the session here even when the
   * server could not be reached (`revoked: false` and the `error`). `forgetDevice: true`
   * also erases this device's shares.
   */
  signOut(options?: SignOutOptions): Promise<SignOutResult> {
    return signOut(this.ctx, options);
  }

  /** user/check for the signed-in account (the nodes' state of its wallets). */
  checkNodes(options?: FlowOptions): Promise<UserCheckResult> {
    return checkNodes(this.ctx, options);
  }

  /**
   * Creates the wallet on `curves` (default both; keygen.ts); needs signIn() first (its answer
   * was `needs_keygen`). `keygen({ signal })` keeps the default curves.
   */
  async keygen(curves: Curve[] | FlowOptions = CURVES, options?: FlowOptions): Promise<SignInResult['user']> {
    const { keygen } = await onceFlows();
    return Array.isArray(curves) ? keygen(this.ctx, curves, options) : keygen(this.ctx, CURVES, curves);
  }

  /** The threshold signers of the signed-in wallet (shares from storage), bound to `signal` if given. */
  signers(options?: FlowOptions): Promise<Signers> {
    return signers(this.ctx, options);
  }

  /** Starts filling the secp256k1 presignature pool in the background (signing.ts). */
  warmUp(): void {
    warmUp(this.ctx);
  }

  /** Rebuilds this device's shares from the server's seed parts and the key share nodes (recovery.ts). */
  async recover(options?: FlowOptions): Promise<void> {
    return (await onceFlows()).recover(this.ctx, options);
  }

  /** Re-creates the shares of key share nodes that lost them; returns the healed node names (heal.ts). */
  async heal(options?: FlowOptions): Promise<string[]> {
    return (await onceFlows()).heal(this.ctx, options);
  }

  /** The full private keys, behind a fresh sign-in (export.ts). */
  async exportKeys(idToken: string, options?: FlowOptions): Promise<ExportedKeys> {
    return (await onceFlows()).exportKeys(this.ctx, idToken, options);
  }
}
