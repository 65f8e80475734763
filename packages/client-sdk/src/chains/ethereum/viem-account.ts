import {
  bytesToHex,
  hashMessage,
  hashTypedData,
  hexToBytes,
  keccak256,
  serializeSignature,
  serializeTransaction,
  type Hex,
  type LocalAccount,
  type Signature,
  type TransactionSerializable,
} from 'viem';
import { toAccount } from 'viem/accounts';
import type { Secp256k1Signer } from '../../signers.js';
import { signDigest, type Secp256k1Signature } from '../secp256k1-signature.js';
import { ethereumAddressOf } from './ethereum-address.js';

/** viem's signature object; `v` is included for legacy transactions, which viem's serializer needs. */
export function toViemSignature(sig: Secp256k1Signature): Signature {
  return { r: bytesToHex(sig.r), s: bytesToHex(sig.s), yParity: sig.recovery, v: 27n + BigInt(sig.recovery) };
}

/**
 * A viem LocalAccount whose every signature comes from the Secp256k1Signer (so, later, from
 * the threshold protocol). Apps that already use viem can pass it to their own clients; the
 * EthereumWallet methods are built on it.
 */
export function toViemAccount(signer: Secp256k1Signer): LocalAccount {
  const signHex = async (hash: Hex): Promise<Signature> =>
    toViemSignature(await signDigest(signer, hexToBytes(hash)));

  return toAccount({
    address: ethereumAddressOf(signer.publicKey),
    async sign({ hash }) {
      return serializeSignature(await signHex(hash));
    },
    async signMessage({ message }) {
      return serializeSignature(await signHex(hashMessage(message)));
    },
    async signTypedData(typedData) {
      return serializeSignature(await signHex(hashTypedData(typedData)));
    },
    async signTransaction(transaction, options) {
      const serializer = options?.serializer ?? serializeTransaction;
      // EIP-4844: the signature covers the payload body, without the blob sidecars.
      const signable: TransactionSerializable =
        transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction;
      const signature = await signHex(keccak256(await serializer(signable)));
      return serializer(transaction, signature);
    },
  });
}
