import { createPublicKey, verify as opensslVerify } from 'node:crypto';
import {
  appendTransactionMessageInstruction,
  compileTransaction,
  createTransactionMessage,
  getPublicKeyFromAddress,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  verifySignature,
  type Address,
  type Blockhash,
  type SignatureBytes,
  type Transaction,
  type TransactionSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';

/*
 * The Solana verifiers and transaction builder shared by the SVM method tests (local signers)
 * and the end-to-end tests (threshold signers through the real service).
 */

export const SOL = 1_000_000_000n;
// Any fixed 32 bytes form a valid-looking recent blockhash for the signing-only tests.
export const OFFLINE_BLOCKHASH = { blockhash: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY' as Blockhash, lastValidBlockHeight: 100n };

export function transfer(opts: {
  feePayer: Address;
  source: TransactionSigner;
  destination: Address;
  amount: bigint;
  blockhash?: typeof OFFLINE_BLOCKHASH;
  version?: 'legacy' | 0;
}): Transaction {
  return compileTransaction(
    pipe(
      createTransactionMessage({ version: opts.version ?? 0 }),
      (m) => setTransactionMessageFeePayer(opts.feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(opts.blockhash ?? OFFLINE_BLOCKHASH, m),
      (m) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: opts.source, destination: opts.destination, amount: lamports(opts.amount) }), m),
    ),
  );
}

/** kit's verification (WebCrypto Ed25519). */
export async function kitVerifies(address: Address, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  return verifySignature(await getPublicKeyFromAddress(address), signature as SignatureBytes, data);
}

/** OpenSSL's verification (node:crypto). */
export function opensslVerifies(publicKey: Uint8Array, signature: Uint8Array, data: Uint8Array): boolean {
  // Ed25519 SubjectPublicKeyInfo = fixed 12-byte DER prefix + the raw key.
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKey)]);
  return opensslVerify(null, data, createPublicKey({ key: spki, format: 'der', type: 'spki' }), signature);
}
