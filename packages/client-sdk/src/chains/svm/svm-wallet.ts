import {
  createSolanaRpc,
  getAddressDecoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  type Address,
  type Commitment,
  type MessagePartialSigner,
  type ReadonlyUint8Array,
  type Signature,
  type SignatureBytes,
  type SignatureDictionary,
  type Transaction,
  type TransactionPartialSigner,
} from '@solana/kit';
import { SvcError } from '../../errors.js';
import type { Ed25519Signer } from '../../signers.js';
import { signEd25519 } from '../ed25519-signature.js';

export interface SvmWalletOptions {
  /** JSON-RPC endpoint of the cluster for the send methods. */
  rpcUrl?: string;
  /** Passed to the RPC's sendTransaction. */
  sendOptions?: { skipPreflight?: boolean; preflightCommitment?: Commitment; maxRetries?: bigint };
}

/** A @solana/kit Transaction, or the same transaction as wire bytes; each method returns the form it was given. */
export type SvmTransactionInput = Transaction | Uint8Array;

export interface SvmSignedMessage {
  signedMessage: Uint8Array;
  /** 64-byte Ed25519 signature over the message bytes. */
  signature: Uint8Array;
}

/**
 * The SVM methods of spec §1 (the Solana wallet-standard names) over the wallet's Ed25519
 * signer, with @solana/kit's wire encodings: a transaction is signed over its message bytes,
 * and the send methods submit the base64 wire transaction to the configured RPC.
 */
export class SvmWallet {
  readonly address: Address;
  /** The same signer as a kit TransactionPartialSigner, for apps that build with kit's signer helpers. */
  readonly transactionSigner: TransactionPartialSigner;
  /** The same signer as a kit MessagePartialSigner: each message's content signed as signMessage does. */
  readonly messageSigner: MessagePartialSigner;

  constructor(
    private readonly signer: Ed25519Signer,
    private readonly options: SvmWalletOptions = {},
  ) {
    if (signer.publicKey?.length !== 32) throw new SvcError('INVALID_ARGUMENT', 'the Ed25519 public key must be 32 bytes');
    this.address = getAddressDecoder().decode(signer.publicKey);
    this.transactionSigner = {
      address: this.address,
      signTransactions: (transactions) =>
        sequential(transactions, async (tx): Promise<SignatureDictionary> => ({ [this.address]: await this.signatureFor(tx) })),
    };
    this.messageSigner = {
      address: this.address,
      signMessages: (messages, config) =>
        sequential(messages, async (message): Promise<SignatureDictionary> => {
          // Each message is a threshold signing session: a cancelled batch stops before the next one.
          config?.abortSignal?.throwIfAborted();
          assertNotTransaction(message.content);
          return { [this.address]: (await signEd25519(this.signer, message.content)) as SignatureBytes };
        }),
    };
  }

  /**
   * Signs arbitrary bytes (UTF-8 for a string), as wallet-standard solana:signMessage. Bytes that
   * are a Solana transaction message (or a wire transaction) are refused with INVALID_ARGUMENT:
   * their signature would be a transaction signature (use signTransaction).
   */
  async signMessage(message: Uint8Array | string): Promise<SvmSignedMessage> {
    const bytes = typeof message === 'string' ? new TextEncoder().encode(message) : message;
    assertNotTransaction(bytes);
    return { signedMessage: bytes, signature: await signEd25519(this.signer, bytes) };
  }

  /** Adds this wallet's signature; other signers' slots are left as they are. */
  async signTransaction<T extends SvmTransactionInput>(transaction: T): Promise<T> {
    const tx = decode(transaction);
    const signed: Transaction = Object.freeze({
      ...tx,
      signatures: Object.freeze({ ...tx.signatures, [this.address]: await this.signatureFor(tx) }),
    });
    return (transaction instanceof Uint8Array ? encode(signed) : signed) as T;
  }

  /** Signs each transaction in order (each one is a separate signing session). */
  signAllTransactions<T extends SvmTransactionInput>(transactions: readonly T[]): Promise<T[]> {
    return sequential(transactions, (tx) => this.signTransaction(tx));
  }

  /**
   * Submits a transaction, adding this wallet's signature first if its slot is still empty
   * (a transaction already signed by every party goes out untouched). Returns the
   * transaction id: the first (fee payer's) signature, base58.
   */
  async sendTransaction(transaction: SvmTransactionInput): Promise<Signature> {
    let tx = decode(transaction);
    if (this.address in tx.signatures && !tx.signatures[this.address]) tx = await this.signTransaction(tx);
    return this.submit(tx);
  }

  /** Signs (always) and submits; returns the transaction id. */
  async signAndSendTransaction(transaction: SvmTransactionInput): Promise<Signature> {
    return this.submit(await this.signTransaction(decode(transaction)));
  }

  /** Signs and submits each transaction in order, so later ones may depend on earlier ones. */
  signAndSendAllTransactions(transactions: readonly SvmTransactionInput[]): Promise<Signature[]> {
    return sequential(transactions, (tx) => this.signAndSendTransaction(tx));
  }

  private async signatureFor(tx: Transaction): Promise<SignatureBytes> {
    if (!(this.address in tx.signatures)) {
      throw new SvcError('NOT_A_SIGNER', `the transaction does not require a signature from ${this.address}`);
    }
    return (await signEd25519(this.signer, new Uint8Array(tx.messageBytes))) as SignatureBytes;
  }

  private async submit(tx: Transaction): Promise<Signature> {
    const { rpcUrl, sendOptions } = this.options;
    if (!rpcUrl) throw new SvcError('INVALID_ARGUMENT', 'the SVM send methods need an rpcUrl in the SVM options');
    const missing = Object.entries(tx.signatures).filter(([, sig]) => !sig).map(([address]) => address);
    if (missing.length > 0) throw new SvcError('INVALID_ARGUMENT', `the transaction still needs signatures from ${missing.join(', ')}`);
    try {
      return await createSolanaRpc(rpcUrl)
        .sendTransaction(getBase64EncodedWireTransaction(tx), { ...sendOptions, encoding: 'base64' })
        .send();
    } catch (err) {
      throw new SvcError('RPC_ERROR', `sendTransaction failed: ${err instanceof Error ? err.message : String(err)}`, 0, { cause: err });
    }
  }
}

/** The transaction id a send method returns for this transaction (its fee payer's signature). */
export function transactionIdOf(transaction: SvmTransactionInput): Signature {
  return getSignatureFromTransaction(decode(transaction));
}

function decode(transaction: SvmTransactionInput): Transaction {
  if (!(transaction instanceof Uint8Array)) {
    if (!transaction?.messageBytes || !transaction.signatures) {
      throw new SvcError('INVALID_ARGUMENT', 'expected a @solana/kit Transaction or wire transaction bytes');
    }
    return transaction;
  }
  try {
    return getTransactionDecoder().decode(transaction);
  } catch (err) {
    throw new SvcError('INVALID_ARGUMENT', 'the bytes are not a wire transaction', 0, { cause: err });
  }
}

/**
 * The one check of every message signing path (signMessage, messageSigner, and through
 * signMessage the Wallet Standard's solana:signMessage): an Ed25519 signature over a compiled
 * transaction message is that transaction's signature, so such bytes are refused. Refused: bytes
 * that kit's decoder reads completely as a compiled message (legacy, v0, or any later version it
 * knows) asking for at least one signature, and bytes that are a wire transaction (signatures
 * and such a message). Text, arbitrary bytes and off-chain messages (0xff 'solana offchain', an
 * unsupported version to the decoder) do not decode and are signed.
 */
function assertNotTransaction(bytes: ReadonlyUint8Array): void {
  let wire: Transaction | undefined;
  try {
    wire = getTransactionDecoder().decode(bytes);
  } catch {
    // not a wire transaction
  }
  if (isTransactionMessage(bytes) || (wire && Object.keys(wire.signatures).length > 0 && isTransactionMessage(wire.messageBytes))) {
    throw new SvcError('INVALID_ARGUMENT', 'signMessage refuses a Solana transaction (its signature would sign the transaction): use signTransaction');
  }
}

function isTransactionMessage(bytes: ReadonlyUint8Array): boolean {
  try {
    const [message, end] = getCompiledTransactionMessageDecoder().read(bytes, 0);
    return end === bytes.length && message.header.numSignerAccounts > 0;
  } catch {
    return false;
  }
}

function encode(transaction: Transaction): Uint8Array {
  return new Uint8Array(getTransactionEncoder().encode(transaction));
}

/** One after the other: each item is a threshold signing session (also used by wallet-standard.ts). */
export async function sequential<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await run(item));
  return out;
}
