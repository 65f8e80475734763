import type { StdSignDoc } from '@cosmjs/amino';
import { toBase64 } from '@cosmjs/encoding';

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
