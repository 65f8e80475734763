import type { Curve, SignInResult, UserCheckResult } from '@svc/contract';
import { HttpClient } from '../http/http-client.js';
import type { Signers } from '../signers.js';
import { MemoryShareStorage, type ShareStorage } from '../storage/share-storage.js';
import { AuthedClient } from './authed-client.js';
import { EcdsaPools } from './ecdsa-pools.js';
import { exportKeys, type ExportedKeys } from './export.js';
import { heal } from './heal.js';
import { CURVES, keygen } from './keygen.js';
import type { SvcWalletOptions } from './options.js';
import { recover } from './recovery.js';
import { checkNodes, requestEmailCode, resume, signIn, signOut, verifyEmailCode, type SignInOutcome } from './sign-in.js';
import { signers, warmUp } from './signing.js';
import { WalletContext } from './wallet-context.js';

export type { SvcWalletOptions } from './options.js';
export type { SignInOutcome, SignInStatus } from './sign-in.js';
export type { ExportedKeys } from './export.js';

/**
 * The client (P0) of the wallet service: sign-in, keygen with key share node backups,
 * threshold signers, recovery, heal and export. See docs/client-sdk.md. Each flow lives in
 * its own file (sign-in.ts, keygen.ts, signing.ts, recovery.ts, heal.ts, export.ts) over the
 * state this class holds (WalletContext).
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
    this.api = new AuthedClient(this.http, {
      ...(options.refreshMarginSeconds !== undefined ? { refreshMarginSeconds: options.refreshMarginSeconds } : {}),
      onToken: (result) => {
        this.ctx.account = result.user;
        options.onToken?.(result);
      },
    });
    const ecdsaPools = new EcdsaPools(this.api, {
      ...(options.presignaturePoolSize !== undefined ? { target: options.presignaturePoolSize } : {}),
      ...(options.onBackgroundError ? { onError: options.onBackgroundError } : {}),
    });
    this.ctx = new WalletContext(options, this.http, this.api, this.storage, ecdsaPools);
  }

  /** The signed-in account, if any. */
  get user(): SignInResult['user'] | undefined {
    return this.ctx.account;
  }

  /** Email login, step 1: the service mails a one-time code. */
  requestEmailCode(email: string): Promise<void> {
    return requestEmailCode(this.ctx, email);
  }

  /** Email login, step 2: the code for an ID token (then pass it to signIn). */
  verifyEmailCode(email: string, code: string): Promise<string> {
    return verifyEmailCode(this.ctx, email, code);
  }

  async signInWithEmail(email: string, code: string): Promise<SignInOutcome> {
    return this.signIn(await this.verifyEmailCode(email, code));
  }

  /** Signs in with a login provider's ID token (sign-in.ts). */
  signIn(idToken: string): Promise<SignInOutcome> {
    return signIn(this.ctx, idToken);
  }

  /** Continues with a stored service JWT (no ID token): refreshed through signin_silently. */
  resume(jwt: string): Promise<SignInOutcome> {
    return resume(this.ctx, jwt);
  }

  signOut(): void {
    signOut(this.ctx);
  }

  /** user/check for the signed-in account (the nodes' state of its wallets). */
  checkNodes(): Promise<UserCheckResult> {
    return checkNodes(this.ctx);
  }

  /** Creates the wallet on `curves` (keygen.ts); needs signIn() first (its answer was `needs_keygen`). */
  keygen(curves: Curve[] = CURVES): Promise<SignInResult['user']> {
    return keygen(this.ctx, curves);
  }

  /** The threshold signers of the signed-in wallet (shares from storage). */
  signers(): Promise<Signers> {
    return signers(this.ctx);
  }

  /** Starts filling the secp256k1 presignature pool in the background (signing.ts). */
  warmUp(): void {
    warmUp(this.ctx);
  }

  /** Rebuilds this device's shares from the server's seed parts and the key share nodes (recovery.ts). */
  recover(): Promise<void> {
    return recover(this.ctx);
  }

  /** Re-creates the shares of key share nodes that lost them; returns the healed node names (heal.ts). */
  heal(): Promise<string[]> {
    return heal(this.ctx);
  }

  /** The full private keys, behind a fresh sign-in (export.ts). */
  exportKeys(idToken: string): Promise<ExportedKeys> {
    return exportKeys(this.ctx, idToken);
  }
}
