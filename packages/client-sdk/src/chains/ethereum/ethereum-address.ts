import { publicKeyToAddress } from 'viem/accounts';
import { bytesToHex, type Address } from 'viem';
import { uncompressSecp256k1 } from '../secp256k1-signature.js';

/** The EIP-55 checksummed address of a compressed secp256k1 public key. */
export function ethereumAddressOf(compressedPublicKey: Uint8Array): Address {
  return publicKeyToAddress(bytesToHex(uncompressSecp256k1(compressedPublicKey)));
}
