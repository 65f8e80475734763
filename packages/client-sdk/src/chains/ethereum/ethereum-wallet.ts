import {
  BaseError,
  createWalletClient,
  hexToBytes,
  http,
  isHex,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type LocalAccount,
  type SendTransactionParameters,
  type SignableMessage,
  type TransactionSerializable,
  type TypedDataDefinition,
} from 'viem';
import { SvcError } from '../../errors.js';
import type { Secp256k1Signer } from '../../signers.js';
import { signDigest, type Secp256k1Signature } from '../secp256k1-signature.js';
import { toViemAccount } from './viem-account.js';

export interface EthereumWalletOptions {
  /** JSON-RPC endpoint for eth_sendTransaction (nonce, fees, gas and eth_sendRawTransaction). */
  rpcUrl?: string;
  /** The chain, when known; otherwise eth_chainId is asked of the RPC. */
  chain?: Chain;
}

/** A transaction for eth_sendTransaction: what is left out (nonce, gas, fees, chainId) is filled from the RPC. */
export type EthereumSendRequest = Omit<SendTransactionParameters<Chain | undefined, LocalAccount>, 'account' | 'chain'>;

/**
 * The Ethereum methods of spec §1, with the wire encodings wallets use (EIP-191, EIP-712,
 * EIP-155/EIP-1559 RLP), built on viem over the wallet's secp256k1 signer.
 */
export class EthereumWallet {
  readonly address: Address;
  /** The same signer as a viem LocalAccount, for apps that drive viem themselves. */
  readonly account: LocalAccount;

  constructor(
    private readonly signer: Secp256k1Signer,
    private readonly options: EthereumWalletOptions = {},
  ) {
    this.account = toViemAccount(signer);
    this.address = this.account.address;
  }

  /**
   * EIP-191 version 0x45 ("\x19Ethereum Signed Message:\n" + length + message). A string is
   * signed as its UTF-8 text; pass `{ raw }` (hex or bytes) to sign bytes. Returns r || s || v
   * (65 bytes hex, v = 27 or 28).
   */
  async personal_sign(message: SignableMessage | Uint8Array): Promise<Hex> {
    return wrapViem(() => this.account.signMessage({ message: message instanceof Uint8Array ? { raw: message } : message }));
  }

  /** EIP-712 typed data (the object, or its JSON as dApps send it). Returns r || s || v hex. */
  async eth_signTypedData_v4(typedData: TypedDataDefinition | string): Promise<Hex> {
    let definition: TypedDataDefinition;
    try {
      definition = typeof typedData === 'string' ? (JSON.parse(typedData) as TypedDataDefinition) : typedData;
    } catch (err) {
      throw new SvcError('INVALID_ARGUMENT', 'typed data is not valid JSON', 0, { cause: err });
    }
    return wrapViem(() => this.account.signTypedData(definition));
  }

  /**
   * Signs a transaction (EIP-1559, EIP-2930 or legacy, by its fields or `type`) and returns
   * the serialized signed transaction, ready for eth_sendRawTransaction. The chainId is
   * required (and must be the `chain` option's, when one is set): a legacy transaction signed
   * without one (pre-EIP-155) is valid on every chain, so anyone could replay it elsewhere.
   */
  async eth_signTransaction(transaction: TransactionSerializable): Promise<Hex> {
    const { chainId } = transaction;
    if (chainId === undefined) throw new SvcError('INVALID_ARGUMENT', 'the transaction needs its chainId: signed without one (pre-EIP-155) it is valid on every chain');
    const { chain } = this.options;
    if (chain && chainId !== chain.id) throw new SvcError('INVALID_ARGUMENT', `the transaction is for chain ${chainId}, this wallet for chain ${chain.id}`);
    return wrapViem(() => this.account.signTransaction(transaction));
  }

  /** Fills nonce, gas and fees from the RPC, signs, sends with eth_sendRawTransaction; returns the hash. */
  async eth_sendTransaction(request: EthereumSendRequest): Promise<Hash> {
    const { rpcUrl, chain } = this.options;
    if (!rpcUrl) throw new SvcError('INVALID_ARGUMENT', 'eth_sendTransaction needs an rpcUrl in the Ethereum options');
    const client = createWalletClient({ account: this.account, chain, transport: http(rpcUrl) });
    return wrapViem(() => client.sendTransaction({ ...request, chain: chain ?? null } as SendTransactionParameters<Chain | undefined, LocalAccount>), 'RPC_ERROR');
  }

  /** A raw ECDSA signature over a 32-byte digest (no prefix, no hashing): low-s, checked. */
  async secp256k1_sign(hash32: Uint8Array | Hex): Promise<Secp256k1Signature> {
    const digest = typeof hash32 === 'string' && isHex(hash32) ? hexToBytes(hash32) : hash32;
    if (!(digest instanceof Uint8Array)) throw new SvcError('INVALID_ARGUMENT', 'the digest must be 32 bytes or 0x-hex');
    return signDigest(this.signer, digest);
  }
}

/** viem's own errors (bad fields, RPC failures) become SvcError; ours pass through. */
async function wrapViem<T>(run: () => Promise<T>, code: 'INVALID_ARGUMENT' | 'RPC_ERROR' = 'INVALID_ARGUMENT'): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof SvcError) throw err;
    const cause = err instanceof BaseError ? err.walk((e) => e instanceof SvcError) : undefined;
    if (cause instanceof SvcError) throw cause;
    const msg = err instanceof BaseError ? err.shortMessage : err instanceof Error ? err.message : String(err);
    throw new SvcError(code, msg, 0, { cause: err });
  }
}
