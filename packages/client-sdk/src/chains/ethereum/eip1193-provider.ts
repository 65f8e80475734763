import { HttpRequestError, RpcRequestError, http, isHex, numberToHex, type Address, type Chain, type EIP1193RequestFn, type TypedDataDefinition } from 'viem';
import type { SignersSource } from '../../signers.js';
import { EthereumWallet, type EthereumSendRequest } from './ethereum-wallet.js';
import { PROVIDER_ERROR_CODES as CODES, ProviderRpcError, toProviderRpcError } from './provider-errors.js';
import { ProviderEventEmitter } from './provider-events.js';
import { parseRpcTransaction, type ParsedTransactionRequest } from './rpc-transaction.js';

/** What the app's confirm hook is asked about: the dapp's request, and the chain it is for. */
export interface EthereumApproval {
  method: 'eth_requestAccounts' | 'personal_sign' | 'eth_signTypedData_v4' | 'eth_signTransaction' | 'eth_sendTransaction' | 'wallet_switchEthereumChain';
  params: readonly unknown[];
  chainId: number;
}

export interface EthereumProviderOptions {
  /** The chains dapps may use, the first one active at start. Each chain's first default HTTP RPC URL serves reads and sends. */
  chains: readonly [Chain, ...Chain[]];
  /** Overrides a chain's RPC URL by chain id (e.g. an app's own node or API key). */
  rpcUrls?: Readonly<Record<number, string>>;
  /** Asked before accounts are exposed and before each signature or chain switch; false rejects the request with 4001. */
  confirm?: (approval: EthereumApproval) => boolean | Promise<boolean>;
}

export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | object;
}

/** Methods a node answers for its own accounts, or signing schemes the wallet does not offer: never forwarded. */
const NOT_FORWARDED = new Set(['eth_sign', 'eth_signTypedData', 'eth_signTypedData_v1', 'eth_signTypedData_v3', 'eth_coinbase', 'eth_sendUserOperation']);
const FORWARDED = /^(eth|net|web3)_/;

/**
 * An EIP-1193 provider over the wallet's threshold secp256k1 key: what viem's `custom()`
 * transport, wagmi and dapps expect of `window.ethereum`. Signing methods go to EthereumWallet,
 * account and chain methods are answered here, and every other `eth_`/`net_`/`web3_` read is
 * forwarded to the active chain's node.
 *
 * Connection states: connected from the start, with no account until `eth_requestAccounts`
 * (which asks the wallet for its signers, so the user must be signed in: 4100 otherwise);
 * `disconnect()` (the app's sign-out) forgets the account and answers 4900 until the next
 * `eth_requestAccounts`.
 */
export class SvcEthereumProvider extends ProviderEventEmitter {
  private active: Chain;
  private wallets: Map<number, EthereumWallet> | undefined;
  private connected = true;

  constructor(
    private readonly source: SignersSource,
    private readonly options: EthereumProviderOptions,
  ) {
    super();
    const ids = options.chains.map((c) => c.id);
    if (new Set(ids).size !== ids.length) throw new RangeError('each chain id may be configured once');
    this.active = options.chains[0];
    // EIP-1193: `connect` once the provider can serve requests; listeners added right after construction hear it.
    queueMicrotask(() => this.emit('connect', { chainId: this.chainIdHex }));
  }

  /** The accounts exposed to the dapp: the wallet's address once eth_requestAccounts succeeded. */
  get accounts(): Address[] {
    const wallet = this.wallets?.get(this.active.id);
    return wallet ? [wallet.address] : [];
  }

  get chainId(): number {
    return this.active.id;
  }

  async request(args: RequestArguments): Promise<unknown> {
    try {
      return await this.dispatch(args.method, Array.isArray(args.params) ? (args.params as readonly unknown[]) : args.params === undefined ? [] : [args.params]);
    } catch (err) {
      throw toProviderRpcError(err);
    }
  }

  /** The app's sign-out: the dapp sees accountsChanged([]) and disconnect (4900) until eth_requestAccounts. */
  disconnect(): void {
    if (!this.connected) return;
    const hadAccounts = this.wallets !== undefined;
    this.wallets = undefined;
    this.connected = false;
    if (hadAccounts) this.emit('accountsChanged', []);
    this.emit('disconnect', new ProviderRpcError(CODES.DISCONNECTED, 'the wallet disconnected'));
  }

  private get chainIdHex(): `0x${string}` {
    return numberToHex(this.active.id);
  }

  private async dispatch(method: string, params: readonly unknown[]): Promise<unknown> {
    if (method === 'eth_requestAccounts') return this.requestAccounts(params);
    if (method === 'eth_accounts') return this.accounts;
    if (!this.connected) throw new ProviderRpcError(CODES.DISCONNECTED, 'the wallet is disconnected: eth_requestAccounts to reconnect');
    switch (method) {
      case 'eth_chainId':
        return this.chainIdHex;
      case 'net_version':
        return String(this.active.id);
      case 'wallet_switchEthereumChain':
        return this.switchChain(params);
      case 'personal_sign':
        return this.personalSign(params);
      case 'eth_signTypedData_v4':
        return this.signTypedData(params);
      case 'eth_signTransaction':
        return this.signTransaction(params);
      case 'eth_sendTransaction':
        return this.sendTransaction(params);
    }
    if (FORWARDED.test(method) && !NOT_FORWARDED.has(method)) return this.forward(method, params);
    throw new ProviderRpcError(CODES.UNSUPPORTED_METHOD, `${method} is not supported`);
  }

  private async requestAccounts(params: readonly unknown[]): Promise<Address[]> {
    if (this.wallets) return this.accounts;
    await this.approve('eth_requestAccounts', params);
    const { secp256k1 } = await this.source.signers(); // NOT_SIGNED_IN / NO_LOCAL_SHARE become 4100
    this.wallets = new Map(this.options.chains.map((chain) => [chain.id, new EthereumWallet(secp256k1, { chain, rpcUrl: this.rpcUrlOf(chain) })]));
    if (!this.connected) {
      this.connected = true;
      this.emit('connect', { chainId: this.chainIdHex });
    }
    this.emit('accountsChanged', this.accounts);
    return this.accounts;
  }

  private async switchChain(params: readonly unknown[]): Promise<null> {
    const requested = (params[0] as { chainId?: unknown } | undefined)?.chainId;
    if (typeof requested !== 'string' || !isHex(requested)) throw new ProviderRpcError(CODES.INVALID_PARAMS, 'chainId must be a hex string');
    const chain = this.options.chains.find((c) => c.id === Number(requested));
    if (!chain) throw new ProviderRpcError(CODES.UNRECOGNIZED_CHAIN, `chain ${requested} is not configured in this wallet`);
    if (chain.id === this.active.id) return null;
    await this.approve('wallet_switchEthereumChain', params);
    this.active = chain;
    this.emit('chainChanged', this.chainIdHex);
    return null;
  }

  private async personalSign(params: readonly unknown[]): Promise<unknown> {
    const [message, from] = params;
    if (typeof message !== 'string') throw new ProviderRpcError(CODES.INVALID_PARAMS, 'personal_sign takes [message, address]');
    const wallet = this.walletFor(from);
    await this.approve('personal_sign', params);
    // Hex is the message's bytes (what viem and ethers send); anything else is signed as UTF-8 text.
    return wallet.personal_sign(isHex(message, { strict: true }) ? { raw: message } : message);
  }

  private async signTypedData(params: readonly unknown[]): Promise<unknown> {
    const [from, typedData] = params;
    const wallet = this.walletFor(from);
    let definition: TypedDataDefinition;
    try {
      definition = (typeof typedData === 'string' ? JSON.parse(typedData) : typedData) as TypedDataDefinition;
    } catch {
      throw new ProviderRpcError(CODES.INVALID_PARAMS, 'typed data is not valid JSON');
    }
    if (typeof definition !== 'object' || definition === null) throw new ProviderRpcError(CODES.INVALID_PARAMS, 'eth_signTypedData_v4 takes [address, typedData]');
    // A signature for another chain could be replayed there: refused, as the dapp must switch first.
    const domainChainId = definition.domain?.chainId;
    if (domainChainId !== undefined && chainIdOf(domainChainId) !== this.active.id) {
      throw new ProviderRpcError(CODES.CHAIN_DISCONNECTED, `the typed data is for chain ${String(domainChainId)}, the wallet is on ${this.active.id}`);
    }
    await this.approve('eth_signTypedData_v4', params);
    return wallet.eth_signTypedData_v4(definition);
  }

  private async signTransaction(params: readonly unknown[]): Promise<unknown> {
    const { wallet, tx } = this.transactionOf(params);
    await this.approve('eth_signTransaction', params);
    // Signed as given: the dapp supplies nonce, gas and fees (eth_sendTransaction fills them).
    return wallet.eth_signTransaction({ ...withoutFrom(tx), chainId: this.active.id } as Parameters<EthereumWallet['eth_signTransaction']>[0]);
  }

  private async sendTransaction(params: readonly unknown[]): Promise<unknown> {
    const { wallet, tx } = this.transactionOf(params);
    await this.approve('eth_sendTransaction', params);
    const { chainId: _chainId, ...request } = withoutFrom(tx);
    return wallet.eth_sendTransaction(request as EthereumSendRequest);
  }

  private transactionOf(params: readonly unknown[]): { wallet: EthereumWallet; tx: ParsedTransactionRequest } {
    const tx = parseRpcTransaction(params[0]);
    const wallet = this.walletFor(tx.from ?? this.accounts[0]);
    if (tx.chainId !== undefined && tx.chainId !== this.active.id) {
      throw new ProviderRpcError(CODES.CHAIN_DISCONNECTED, `the transaction is for chain ${tx.chainId}, the wallet is on ${this.active.id}`);
    }
    return { wallet, tx };
  }

  /** The active chain's wallet, when `from` is the connected account (4100 otherwise). */
  private walletFor(from: unknown): EthereumWallet {
    const wallet = this.wallets?.get(this.active.id);
    if (!wallet) throw new ProviderRpcError(CODES.UNAUTHORIZED, 'no account is connected: eth_requestAccounts first');
    if (typeof from !== 'string' || from.toLowerCase() !== wallet.address.toLowerCase()) {
      throw new ProviderRpcError(CODES.UNAUTHORIZED, `${String(from)} is not an account of this wallet`);
    }
    return wallet;
  }

  private async approve(method: EthereumApproval['method'], params: readonly unknown[]): Promise<void> {
    const { confirm } = this.options;
    if (confirm && !(await confirm({ method, params, chainId: this.active.id }))) {
      throw new ProviderRpcError(CODES.USER_REJECTED, 'the user rejected the request');
    }
  }

  private rpcUrlOf(chain: Chain): string | undefined {
    return this.options.rpcUrls?.[chain.id] ?? chain.rpcUrls.default.http[0];
  }

  /** A read for the active chain's node; an unreachable node is 4901, the node's own errors keep their code. */
  private async forward(method: string, params: readonly unknown[]): Promise<unknown> {
    const url = this.rpcUrlOf(this.active);
    if (!url) throw new ProviderRpcError(CODES.CHAIN_DISCONNECTED, `no RPC URL is configured for chain ${this.active.id}`);
    const request = http(url, { retryCount: 0 })({ chain: this.active }).request as EIP1193RequestFn;
    try {
      return await request({ method, params } as never);
    } catch (err) {
      if (err instanceof RpcRequestError) throw new ProviderRpcError(err.code, err.details, (err.cause as { data?: unknown } | undefined)?.data, { cause: err });
      if (err instanceof HttpRequestError) throw new ProviderRpcError(CODES.CHAIN_DISCONNECTED, `the node of chain ${this.active.id} is unreachable`, undefined, { cause: err });
      throw err;
    }
  }
}

/** EIP-712 domains carry the chain id as a number, a bigint, or a decimal or hex string. */
function chainIdOf(value: unknown): number {
  try {
    if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return Number(BigInt(value));
  } catch {
    // falls through to the refusal below
  }
  throw new ProviderRpcError(CODES.INVALID_PARAMS, `the typed data's chainId ${String(value)} is not a number`);
}

function withoutFrom(tx: ParsedTransactionRequest): Omit<ParsedTransactionRequest, 'from'> {
  const { from: _from, ...rest } = tx;
  return rest;
}

/** The EIP-1193 provider of a signed-in SvcWallet (or any source of signers). */
export function ethereumProvider(source: SignersSource, options: EthereumProviderOptions): SvcEthereumProvider {
  return new SvcEthereumProvider(source, options);
}
