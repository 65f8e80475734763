import { SvcError } from '../../errors.js';
import type { Ed25519Signer, SignersSource } from '../../signers.js';
import { SvmWallet, sequential } from './svm-wallet.js';

/*
 * The SVM wallet as a Solana Wallet Standard wallet (the interface Solana dapps and
 * @solana/wallet-adapter discover wallets by), registered with the standard's window-event
 * protocol. The types below are the standard's shapes (@wallet-standard/base 1.x and
 * @solana/wallet-standard-features), written out so that the SDK ships no runtime dependency for
 * a handful of interfaces.
 */

export type WalletIcon = `data:image/${'svg+xml' | 'webp' | 'png' | 'gif'};base64,${string}`;
export type SolanaChain = 'solana:mainnet' | 'solana:devnet' | 'solana:testnet' | 'solana:localnet';

export interface StandardWalletAccount {
  readonly address: string;
  readonly publicKey: Uint8Array;
  readonly chains: readonly SolanaChain[];
  readonly features: readonly `${string}:${string}`[];
}

export interface SolanaSignMessageInput {
  account: StandardWalletAccount;
  message: Uint8Array;
}
export interface SolanaSignTransactionInput {
  account: StandardWalletAccount;
  transaction: Uint8Array;
  chain?: string;
}
type ChangeListener = (properties: { accounts?: readonly StandardWalletAccount[] }) => void;

export interface SvcStandardWalletFeatures {
  'standard:connect': { version: '1.0.0'; connect(input?: { silent?: boolean }): Promise<{ accounts: readonly StandardWalletAccount[] }> };
  'standard:disconnect': { version: '1.0.0'; disconnect(): Promise<void> };
  'standard:events': { version: '1.0.0'; on(event: 'change', listener: ChangeListener): () => void };
  'solana:signMessage': {
    version: '1.1.0';
    signMessage(...inputs: SolanaSignMessageInput[]): Promise<{ signedMessage: Uint8Array; signature: Uint8Array; signatureType: 'ed25519' }[]>;
  };
  'solana:signTransaction': {
    version: '1.0.0';
    supportedTransactionVersions: readonly ('legacy' | 0)[];
    signTransaction(...inputs: SolanaSignTransactionInput[]): Promise<{ signedTransaction: Uint8Array }[]>;
  };
}

export interface StandardWalletOptions {
  name: string;
  icon: WalletIcon;
  /** The clusters the dapp may use the account on (default: all four). */
  chains?: readonly SolanaChain[];
}

const ALL_CHAINS: readonly SolanaChain[] = ['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'];
const ACCOUNT_FEATURES = ['solana:signMessage', 'solana:signTransaction'] as const;

/**
 * A Wallet Standard wallet over a signed-in SvcWallet: no account until `standard:connect`
 * (which needs the wallet's signers, so a signed-in user), then one account, the SVM address.
 * Messages and wire transactions are signed as SvmWallet signs them; an input naming another
 * account is refused (`NOT_A_SIGNER`), and so is any input before connect (`NOT_SIGNED_IN`).
 */
export class SvcStandardWallet {
  readonly version = '1.0.0' as const;
  readonly name: string;
  readonly icon: WalletIcon;
  readonly chains: readonly SolanaChain[];
  readonly features: SvcStandardWalletFeatures;
  #svm: SvmWallet | undefined;
  #accounts: readonly StandardWalletAccount[] = [];
  readonly #listeners = new Set<ChangeListener>();

  constructor(
    private readonly source: SignersSource,
    options: StandardWalletOptions,
  ) {
    this.name = options.name;
    this.icon = options.icon;
    this.chains = options.chains ?? ALL_CHAINS;
    this.features = {
      'standard:connect': { version: '1.0.0', connect: () => this.#connect() },
      'standard:disconnect': { version: '1.0.0', disconnect: async () => this.#setAccounts(undefined) },
      'standard:events': {
        version: '1.0.0',
        on: (_event, listener) => {
          this.#listeners.add(listener);
          return () => this.#listeners.delete(listener);
        },
      },
      'solana:signMessage': {
        version: '1.1.0',
        signMessage: (...inputs) =>
          sequential(inputs, async ({ account, message }) => ({ ...(await this.#wallet(account).signMessage(message)), signatureType: 'ed25519' as const })),
      },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signTransaction: (...inputs) =>
          sequential(inputs, async ({ account, transaction }) => ({ signedTransaction: await this.#wallet(account).signTransaction(transaction) })),
      },
    };
  }

  get accounts(): readonly StandardWalletAccount[] {
    return this.#accounts;
  }

  async #connect(): Promise<{ accounts: readonly StandardWalletAccount[] }> {
    if (!this.#svm) this.#setAccounts((await this.source.signers()).ed25519);
    return { accounts: this.#accounts };
  }

  #setAccounts(signer: Ed25519Signer | undefined): void {
    const svm = signer && new SvmWallet(signer);
    this.#svm = svm;
    this.#accounts = svm ? [Object.freeze({ address: svm.address, publicKey: signer.publicKey, chains: this.chains, features: ACCOUNT_FEATURES })] : [];
    for (const listener of this.#listeners) listener({ accounts: this.#accounts });
  }

  /** The connected wallet, if `account` is its account. */
  #wallet(account: StandardWalletAccount): SvmWallet {
    if (!this.#svm) throw new SvcError('NOT_SIGNED_IN', 'the wallet is not connected (standard:connect)');
    if (account?.address !== this.#svm.address) throw new SvcError('NOT_A_SIGNER', `${String(account?.address)} is not this wallet's account`);
    return this.#svm;
  }
}

/** What the app side of the standard hands a wallet (`register` answers an unregister function). */
interface WalletsRegistry {
  register(wallet: SvcStandardWallet): () => void;
}

/**
 * Registers `wallet` by the Wallet Standard's window events, as `registerWallet` of
 * @wallet-standard/wallet does: a `wallet-standard:register-wallet` event now (for apps already
 * listening), and an answer to each `wallet-standard:app-ready` (apps that load later). Returns
 * a function that unregisters it from every app it reached and stops answering.
 */
export function registerStandardWallet(wallet: SvcStandardWallet, target: EventTarget = globalThis.window): () => void {
  const unregisters: (() => void)[] = [];
  const callback = ({ register }: WalletsRegistry) => {
    unregisters.push(register(wallet));
  };
  const onAppReady = (event: Event) => callback((event as CustomEvent<WalletsRegistry>).detail);
  target.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
  target.addEventListener('wallet-standard:app-ready', onAppReady);
  return () => {
    target.removeEventListener('wallet-standard:app-ready', onAppReady);
    for (const unregister of unregisters.splice(0)) unregister();
  };
}
