import { sha256 } from '@noble/hashes/sha2.js';
import { equalBytes } from '@noble/curves/utils.js';
import { expectSha256, fromHex, toHex } from '@svc/crypto';
import {
  backupUserPart,
  combineWalletSeed,
  commitToNodes,
  expectWalletKey,
  healLostNodes,
  IdTokenSession,
  KeyshareNodeClient,
  recoverUserPart,
  splitWalletSeed,
  type KeyshareNodeRef,
} from '@svc/keyshare-client';
import { createChainWallets, type ChainWallets, type ChainWalletsOptions } from '../chain-wallets.js';
import { SvcError, isSvcError } from '../errors.js';
import { HttpClient, type FetchLike } from '../http/http-client.js';
import type { Signers } from '../signers.js';
import { MemoryShareStorage, shareStorageKey, type ShareStorage } from '../storage/share-storage.js';
import { Ed25519ThresholdSigner } from '../threshold/ed25519-threshold-signer.js';
import { Secp256k1ThresholdSigner } from '../threshold/secp256k1-threshold-signer.js';
import { AuthedClient } from './authed-client.js';
import {
  dealEd25519,
  dealFromSeed,
  dealSecp256k1Key,
  ed25519Packages,
  parseShare,
  serialiseShare,
  type ClientShare,
} from './client-shares.js';
import { EcdsaPools, type EcdsaWiring } from './ecdsa-pools.js';
import { readJwtClaims } from './jwt-claims.js';
import { withSvcErrors } from './protocol-errors.js';
import { tssApi, type Curve, type ServerSeedPart, type SignInResult, type UserCheckResult, type WalletInfo } from '@svc/contract';

export interface SvcWalletOptions {
  /** The gateway, e.g. https://wallet.example.com. */
  gatewayUrl: string;
  /** The app's API key (X-API-Key). */
  apiKey: string;
  /** Where the client shares live (default: memory, i.e. lost on reload). */
  storage?: ShareStorage;
  /** The key share nodes and threshold; default: asked from user/check for the signing-in email. */
  keyshareNodes?: KeyshareNodeRef[];
  keyshareThreshold?: number;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Refresh the service JWT this many seconds before it expires (default 60). */
  refreshMarginSeconds?: number;
  /** How fresh an ID token must be for exportKeys (default 300 s). */
  exportMaxAgeSeconds?: number;
  /** ECDSA presignatures kept ready per wallet, filled in the background (default 4). */
  presignaturePoolSize?: number;
  /** A background presignature fill failed (the next signature retries in the foreground). */
  onBackgroundError?: (err: unknown) => void;
  /** Replaces the ECDSA wiring (default: tss-api triples/presign/sign with an in-memory pool). */
  ecdsa?: (wallet: { publicKey: Uint8Array; api: AuthedClient }) => EcdsaWiring;
  onToken?: (result: SignInResult) => void;
}

export type SignInStatus = 'ready' | 'needs_keygen' | 'needs_recovery';

export interface SignInOutcome {
  status: SignInStatus;
  /** The account (absent before keygen). */
  user?: SignInResult['user'];
  /** The key share nodes' state for this user; `needs_reshare` means heal() should run. */
  check?: UserCheckResult;
}

export interface ExportedKeys {
  ethereum?: { privateKey: `0x${string}`; publicKey: string };
  solana?: { secretKey: Uint8Array; publicKey: string };
}

interface IdSession {
  session: IdTokenSession;
  /** Nodes that accepted this token's commit: the only ones it may be shown to. */
  nodes: KeyshareNodeClient[];
  threshold: number;
  email?: string;
  issuedAt?: number;
}

const CURVES: Curve[] = ['ed25519', 'secp256k1'];

/**
 * The client (P0) of the wallet service: sign-in, keygen with key share node backups,
 * threshold signers, recovery, heal and export. See docs/client-sdk.md.
 */
export class SvcWallet {
  readonly http: HttpClient;
  readonly api: AuthedClient;
  readonly storage: ShareStorage;
  private id: IdSession | undefined;
  private account: SignInResult['user'] | undefined;
  private readonly ecdsaPools: EcdsaPools;

  constructor(private readonly options: SvcWalletOptions) {
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
        this.account = result.user;
        options.onToken?.(result);
      },
    });
    this.ecdsaPools = new EcdsaPools(this.api, {
      ...(options.presignaturePoolSize !== undefined ? { target: options.presignaturePoolSize } : {}),
      ...(options.onBackgroundError ? { onError: options.onBackgroundError } : {}),
    });
  }

  /** The signed-in account, if any. */
  get user(): SignInResult['user'] | undefined {
    return this.account;
  }

  // ---- sign-in ----------------------------------------------------------------------------

  /** Email login, step 1: the service mails a one-time code. */
  async requestEmailCode(email: string): Promise<void> {
    await this.http.post(tssApi.emailRequestCode.path, { email });
  }

  /** Email login, step 2: the code for an ID token (then pass it to signIn). */
  async verifyEmailCode(email: string, code: string): Promise<string> {
    const data = await this.http.post<{ id_token: string }>(tssApi.emailVerifyCode.path, { email, code });
    return data.id_token;
  }

  async signInWithEmail(email: string, code: string): Promise<SignInOutcome> {
    return this.signIn(await this.verifyEmailCode(email, code));
  }

  /**
   * Signs in with a login provider's ID token. The token is committed (with a fresh session
   * key) to the key share nodes BEFORE it is sent to the gateway, so nobody who sees it later
   * can use it at a node. Then user/signin; a user without a wallet gets `needs_keygen`, a
   * device without its shares `needs_recovery`. A stored share whose key differs from the
   * server's wallet key is PROTOCOL_ERROR.
   */
  async signIn(idToken: string): Promise<SignInOutcome> {
    const claims = readJwtClaims(idToken);
    const { nodes, threshold } = await this.keyshareNodes(claims.email);
    this.id?.session.destroy();
    const session = IdTokenSession.create(idToken);
    const outcomes = await withSvcErrors('committing the ID token to the key share nodes', () => commitToNodes(nodes, session, threshold));
    this.id = {
      session,
      nodes: nodes.filter((n) => outcomes.find((o) => o.name === n.name)?.ok),
      threshold,
      ...(claims.email ? { email: claims.email } : {}),
      ...(claims.iat !== undefined ? { issuedAt: claims.iat } : {}),
    };

    let result: SignInResult;
    try {
      result = await this.http.post<SignInResult>(tssApi.userSignin.path, undefined, { bearer: idToken });
    } catch (err) {
      if (isSvcError(err, 'USER_NOT_FOUND') || isSvcError(err, 'WALLET_NOT_FOUND')) return { status: 'needs_keygen' };
      throw err;
    }
    this.api.setToken(result);
    const status = (await this.hasAllShares(result.user.wallets)) ? 'ready' : 'needs_recovery';
    if (status === 'ready') this.warmUp();
    return { status, user: result.user, check: await this.checkNodes() };
  }

  /** Continues with a stored service JWT (no ID token): refreshed through signin_silently. */
  async resume(jwt: string): Promise<SignInOutcome> {
    this.api.setJwt(jwt);
    const result = await this.api.refresh();
    const status = (await this.hasAllShares(result.user.wallets)) ? 'ready' : 'needs_recovery';
    if (status === 'ready') this.warmUp();
    return { status, user: result.user };
  }

  signOut(): void {
    this.id?.session.destroy();
    this.id = undefined;
    this.account = undefined;
    this.ecdsaPools.clear();
    this.api.clear();
  }

  /** user/check for the signed-in account (the nodes' state of its wallets). */
  async checkNodes(): Promise<UserCheckResult> {
    const user = this.requireAccount();
    return this.http.post<UserCheckResult>(tssApi.userCheck.path, { email: user.email, auth_type: user.auth_type });
  }

  // ---- keygen -----------------------------------------------------------------------------

  /**
   * Creates the wallet: per curve the client deals keygen_1/keygen_2 from a fresh seed, splits
   * the seed 2-of-2, backs the user part up t-of-n on the key share nodes (first, so no wallet
   * exists without its backup), sends keygen_2 + the server part to /tss/v1/keygen, and keeps
   * keygen_1 in storage. Needs signIn() first (its answer was `needs_keygen`).
   */
  async keygen(curves: Curve[] = CURVES): Promise<SignInResult['user']> {
    const id = this.requireIdSession();
    const dealt = curves.map((c) => (c === 'ed25519' ? dealEd25519() : dealSecp256k1Key()));
    const body: Record<string, unknown> = {};
    const digests = new Map<Curve, string>();
    try {
      for (const key of dealt) {
        const { serverPart, userPart } = await splitWalletSeed(key.seed);
        body[key.curve] = { ...key.serverBody, seed_part: toHex(serverPart) };
        digests.set(key.curve, toHex(sha256(userPart)));
        await withSvcErrors(`backing up the ${key.curve} seed`, () =>
          backupUserPart({ nodes: id.nodes, threshold: id.threshold, session: id.session, wallet: { curve: key.curve, publicKey: toHex(key.publicKey) }, userPart }),
        );
        userPart.fill(0);
        serverPart.fill(0);
      }
      const result = await this.http.post<SignInResult>(tssApi.keygen.path, body, { bearer: id.session.idToken });
      for (const key of dealt) {
        const wallet = this.walletOf(result.user.wallets, key.curve);
        if (wallet.public_key !== toHex(key.publicKey)) {
          throw new SvcError('PROTOCOL_ERROR', `keygen answered ${key.curve} public key ${wallet.public_key}, the dealt key is ${toHex(key.publicKey)}`);
        }
        const share = key.clientShare(wallet.wallet_id);
        const digest = digests.get(key.curve);
        await this.storage.set(shareStorageKey(wallet.wallet_id, key.curve), serialiseShare(digest ? { ...share, user_part_sha256: digest } : share));
      }
      this.api.setToken(result);
      this.warmUp();
      return result.user;
    } finally {
      for (const key of dealt) key.seed.fill(0);
    }
  }

  // ---- signing ----------------------------------------------------------------------------

  /** The threshold signers of the signed-in wallet (shares from storage). */
  async signers(): Promise<Signers> {
    const ed = await this.loadShare('ed25519');
    if (ed.curve !== 'ed25519') throw new SvcError('NO_LOCAL_SHARE', 'no ed25519 share');
    const { keyPackage, publicKeyPackage } = await withSvcErrors('reading the stored ed25519 share', () => ed25519Packages(ed));
    const ed25519 = new Ed25519ThresholdSigner(this.api, keyPackage, publicKeyPackage);
    if (!equalBytes(ed25519.publicKey, fromHex(this.walletOf(this.requireAccount().wallets, 'ed25519').public_key, 'public_key'))) {
      throw new SvcError('PROTOCOL_ERROR', 'the server\u2019s ed25519 wallet key differs from the key this device holds');
    }
    const publicKey = fromHex(this.walletOf(this.requireAccount().wallets, 'secp256k1').public_key, 'public_key');
    const wiring = this.options.ecdsa?.({ publicKey, api: this.api }) ?? this.ecdsaWiring();
    return { ed25519, secp256k1: new Secp256k1ThresholdSigner(publicKey, wiring.source, wiring.step) };
  }

  /**
   * Starts filling the secp256k1 presignature pool in the background (keygen, recovery and a
   * ready sign-in call it), so the first ECDSA signature does not wait for the offline phase.
   */
  warmUp(): void {
    if (this.options.presignaturePoolSize === 0) return;
    const account = this.account;
    if (!account?.wallets.some((w) => w.curve === 'secp256k1') || this.options.ecdsa) return;
    this.ecdsaWiring().source.replenish();
  }

  /** The default wiring: the wallet's pool (one per wallet key) and one-round-trip signing. */
  private ecdsaWiring(): EcdsaWiring {
    const wallet = this.walletOf(this.requireAccount().wallets, 'secp256k1');
    return this.ecdsaPools.wiring(wallet.wallet_id, wallet.public_key, async () => {
      const share = await this.loadShare('secp256k1');
      if (share.curve !== 'secp256k1') throw new SvcError('NO_LOCAL_SHARE', 'no secp256k1 share');
      return { identifier: 1, secretShare: fromHex(share.secret_share, 'secret_share', 32), publicKey: fromHex(share.public_key, 'public_key', 33) };
    });
  }

  /** The spec §1 chain methods over this wallet's threshold signers. */
  async chains(options: ChainWalletsOptions = {}): Promise<ChainWallets> {
    return createChainWallets(await this.signers(), options);
  }

  // ---- recovery, heal, export -------------------------------------------------------------

  /**
   * A new device (or cleared storage): the server's seed part (behind the ID token) and t
   * user-part shares from the key share nodes give each seed, checked against the wallet key;
   * the deterministic dealing re-derives keygen_1 (and the secp256k1 f(1)) from it.
   */
  async recover(): Promise<void> {
    const seeds = await this.recoverSeeds();
    try {
      for (const { wallet, seed, userPartDigest } of seeds) {
        const key = dealFromSeed(wallet.curve, seed);
        if (toHex(key.publicKey) !== wallet.public_key) throw new SvcError('PROTOCOL_ERROR', `the recovered ${wallet.curve} key is not the wallet key`);
        await this.storage.set(shareStorageKey(wallet.wallet_id, wallet.curve), serialiseShare({ ...key.clientShare(wallet.wallet_id), user_part_sha256: userPartDigest }));
      }
      this.warmUp();
    } finally {
      for (const s of seeds) s.seed.fill(0);
    }
  }

  /**
   * After a node's data loss (user/check: UNRECOVERABLE_DATA_LOSS), or for a backup a node never
   * got (reason MISSING_NODE_BACKUP: that node answers NOT_REGISTERED): the lost nodes' shares are
   * re-created from t healthy ones at the same x (the healthy shares stay valid), registered
   * with reshare, and reported with user/reshare. Needs a sign-in made after the node came
   * back (its commit table was lost with the data). Returns the healed node names.
   */
  async heal(): Promise<string[]> {
    const id = this.requireIdSession();
    const check = await this.checkNodes();
    const missing = check.reshare_reasons?.includes('MISSING_NODE_BACKUP') ?? false;
    const lost = check.keyshare_node_meta.nodes
      .filter((n) => n.wallet_status === 'UNRECOVERABLE_DATA_LOSS' || (missing && n.wallet_status === 'NOT_REGISTERED' && n.node_status === 'ONLINE'))
      .map((n) => n.name);
    if (lost.length === 0) return [];
    const notCommitted = lost.filter((name) => !id.nodes.some((n) => n.name === name));
    if (notCommitted.length > 0) throw new SvcError('NOT_SIGNED_IN', `sign in again: the ID token is not committed to ${notCommitted.join(', ')}`);
    const healed = new Set<string>();
    for (const wallet of this.requireAccount().wallets) {
      const verify = await this.userPartCheck(wallet);
      const { resharedKeyShares } = await withSvcErrors(`healing the ${wallet.curve} backup`, () =>
        healLostNodes({ nodes: id.nodes, lost, threshold: id.threshold, session: id.session, wallet: { curve: wallet.curve, publicKey: wallet.public_key }, verify }),
      );
      if (resharedKeyShares.length < lost.length) {
        const missing = lost.filter((name) => !resharedKeyShares.some((r) => r.name === name));
        throw new SvcError('KEYSHARE_ERROR', `healing the ${wallet.curve} backup: ${missing.join(', ')} refused the new share`);
      }
      await this.http.post(tssApi.userReshare.path, { public_key: wallet.public_key, reshared_key_shares: resharedKeyShares }, { bearer: id.session.idToken });
      for (const r of resharedKeyShares) healed.add(r.name);
    }
    return [...healed];
  }

  /**
   * The full private keys, behind a fresh sign-in: `idToken` must have been issued within
   * exportMaxAgeSeconds; it is committed and signed in with like any sign-in. Ethereum: the
   * 32-byte private key as 0x-hex; Solana: the 64-byte keypair (seed || public key).
   */
  async exportKeys(idToken: string): Promise<ExportedKeys> {
    const iat = readJwtClaims(idToken).iat;
    const maxAge = this.options.exportMaxAgeSeconds ?? 300;
    if (iat === undefined || Date.now() / 1000 - iat > maxAge) throw new SvcError('NOT_SIGNED_IN', `key export needs an ID token issued within ${maxAge} s`);
    await this.signIn(idToken);
    const seeds = await this.recoverSeeds();
    const out: ExportedKeys = {};
    for (const { wallet, seed } of seeds) {
      if (wallet.curve === 'secp256k1') out.ethereum = { privateKey: `0x${toHex(seed)}`, publicKey: wallet.public_key };
      else {
        const secretKey = new Uint8Array(64);
        secretKey.set(seed, 0);
        secretKey.set(fromHex(wallet.public_key, 'public_key'), 32);
        out.solana = { secretKey, publicKey: wallet.public_key };
      }
      seed.fill(0);
    }
    return out;
  }

  // ---- internals --------------------------------------------------------------------------

  private async recoverSeeds(): Promise<{ wallet: WalletInfo; seed: Uint8Array; userPartDigest: string }[]> {
    const id = this.requireIdSession();
    const account = this.requireAccount();
    const parts = await this.http.post<{ wallets: ServerSeedPart[] }>(tssApi.userSeedParts.path, undefined, { bearer: id.session.idToken });
    const seeds: { wallet: WalletInfo; seed: Uint8Array; userPartDigest: string }[] = [];
    for (const wallet of account.wallets) {
      const part = parts.wallets.find((p) => p.curve === wallet.curve && p.wallet_id === wallet.wallet_id);
      if (!part) throw new SvcError('PROTOCOL_ERROR', `no server seed part for the ${wallet.curve} wallet`);
      const serverPart = await withSvcErrors('reading the server seed part', () => fromHex(part.seed_part, 'seed_part'));
      const ref = { curve: wallet.curve, publicKey: wallet.public_key };
      const { userPart } = await withSvcErrors(`recovering the ${wallet.curve} user part`, () =>
        recoverUserPart({ nodes: id.nodes, threshold: id.threshold, session: id.session, wallet: ref, verify: expectWalletKey(wallet.curve, wallet.public_key, serverPart) }),
      );
      const seed = await withSvcErrors('combining the seed', () => combineWalletSeed(wallet.curve, wallet.public_key, { serverPart, userPart }));
      seeds.push({ wallet, seed, userPartDigest: toHex(sha256(userPart)) });
      userPart.fill(0);
      serverPart.fill(0);
    }
    return seeds;
  }

  /** The check for a healed share: the stored digest of the user part, else the server part. */
  private async userPartCheck(wallet: WalletInfo) {
    const stored = await this.storage.get(shareStorageKey(wallet.wallet_id, wallet.curve));
    const digest = stored ? parseShare(stored, wallet.curve).user_part_sha256 : undefined;
    if (digest) return expectSha256(fromHex(digest, 'user_part_sha256', 32));
    const parts = await this.http.post<{ wallets: ServerSeedPart[] }>(tssApi.userSeedParts.path, undefined, { bearer: this.requireIdSession().session.idToken });
    const part = parts.wallets.find((p) => p.wallet_id === wallet.wallet_id);
    if (!part) throw new SvcError('PROTOCOL_ERROR', `no server seed part for the ${wallet.curve} wallet`);
    return expectWalletKey(wallet.curve, wallet.public_key, fromHex(part.seed_part, 'seed_part'));
  }

  private async keyshareNodes(email: string | undefined): Promise<{ nodes: KeyshareNodeClient[]; threshold: number }> {
    let refs = this.options.keyshareNodes;
    let threshold = this.options.keyshareThreshold;
    if (!refs) {
      if (!email) throw new SvcError('INVALID_ARGUMENT', 'this ID token carries no email: configure keyshareNodes');
      const meta = (await this.http.post<UserCheckResult>(tssApi.userCheck.path, { email })).keyshare_node_meta;
      refs = meta.nodes.map((n) => ({ name: n.name, endpoint: n.endpoint }));
      threshold ??= meta.threshold;
    }
    if (!threshold || threshold < 1 || threshold > refs.length) throw new SvcError('INVALID_ARGUMENT', 'keyshareThreshold must be between 1 and the number of nodes');
    const fetchFn = this.options.fetch as typeof fetch | undefined;
    return { nodes: refs.map((r) => new KeyshareNodeClient(r, fetchFn ? { fetch: fetchFn } : {})), threshold };
  }

  private async hasAllShares(wallets: WalletInfo[]): Promise<boolean> {
    for (const w of wallets) {
      const stored = await this.storage.get(shareStorageKey(w.wallet_id, w.curve));
      if (!stored) return false;
      const share = parseShare(stored, w.curve);
      // The device's key is the reference: a server naming another key is not trusted.
      if (share.public_key !== w.public_key) {
        throw new SvcError('PROTOCOL_ERROR', `the server\u2019s ${w.curve} wallet key ${w.public_key} differs from the key this device holds (${share.public_key})`);
      }
    }
    return true;
  }

  private async loadShare(curve: Curve): Promise<ClientShare> {
    const wallet = this.walletOf(this.requireAccount().wallets, curve);
    const stored = await this.storage.get(shareStorageKey(wallet.wallet_id, curve));
    if (!stored) throw new SvcError('NO_LOCAL_SHARE', `this device holds no ${curve} share: recover() first`);
    const share = parseShare(stored, curve);
    if (share.public_key !== wallet.public_key) throw new SvcError('PROTOCOL_ERROR', `the server\u2019s ${curve} wallet key differs from the key this device holds`);
    return share;
  }

  private walletOf(wallets: WalletInfo[], curve: Curve): WalletInfo {
    const w = wallets.find((x) => x.curve === curve);
    if (!w) throw new SvcError('WALLET_NOT_FOUND', `the account has no ${curve} wallet`);
    return w;
  }

  private requireIdSession(): IdSession {
    if (!this.id) throw new SvcError('NOT_SIGNED_IN', 'sign in with an ID token first');
    return this.id;
  }

  private requireAccount(): SignInResult['user'] {
    if (!this.account) throw new SvcError('NOT_SIGNED_IN', 'sign in first');
    return this.account;
  }
}
