import type { StdSignature, StdSignDoc } from '@cosmjs/amino';
import { fromBech32, toBase64 } from '@cosmjs/encoding';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { decodeSignature, rawSecp256k1PubkeyToRawAddress, serializeSignDoc } from './cosmjs.js';

/**
 * The ADR-036 sign doc for arbitrary data: one MsgSignData from the signer, an empty chain id,
 * zero account number, sequence and fees, so it can never be a valid transaction on any chain.
 * https://github.com/cosmos/cosmos-sdk/blob/main/docs/architecture/adr-036-arbitrary-signature.md
 */
export function adr036SignDoc(signer: string, data: string | Uint8Array): StdSignDoc {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return {
    chain_id: '',
    account_number: '0',
    sequence: '0',
    fee: { gas: '0', amount: [] },
    msgs: [{ type: 'sign/MsgSignData', value: { signer, data: toBase64(bytes) } }],
    memo: '',
  };
}

/**
 * Keplr's verifyArbitrary without a wallet: true when `signature` is an ADR-036 signature of
 * `data` by `signer`, i.e. its public key is the signer's (by address, any bech32 prefix) and
 * the low-s secp256k1 signature verifies over SHA-256 of the sign doc. Malformed input is false.
 */
export function verifyAdr036(signer: string, data: string | Uint8Array, signature: StdSignature): boolean {
  try {
    const { pubkey, signature: rs } = decodeSignature(signature);
    const signerData = fromBech32(signer).data;
    const keyAddress = rawSecp256k1PubkeyToRawAddress(pubkey);
    if (signerData.length !== keyAddress.length || signerData.some((b, i) => b !== keyAddress[i])) return false;
    const digest = sha256(serializeSignDoc(adr036SignDoc(signer, data)));
    return secp256k1.verify(rs, digest, pubkey, { prehash: false, lowS: true });
  } catch {
    return false;
  }
}
