import { hexToBigInt, hexToNumber, isAddress, isHex, type AccessList, type Address, type Hex } from 'viem';
import { PROVIDER_ERROR_CODES, ProviderRpcError } from './provider-errors.js';

/** A transaction as dapps send it in eth_sendTransaction / eth_signTransaction: quantities as hex. */
export interface RpcTransactionRequest {
  from?: string;
  to?: string | null;
  data?: string;
  input?: string;
  value?: string;
  gas?: string;
  gasPrice?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  nonce?: string;
  chainId?: string;
  type?: string;
  accessList?: AccessList;
}

/** The same transaction with viem's types (bigint quantities, named type), undefined fields left out. */
export interface ParsedTransactionRequest {
  from?: Address;
  to?: Address;
  data?: Hex;
  value?: bigint;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  nonce?: number;
  chainId?: number;
  type?: 'legacy' | 'eip2930' | 'eip1559';
  accessList?: AccessList;
}

const TYPES = { '0x0': 'legacy', '0x1': 'eip2930', '0x2': 'eip1559' } as const;

/** Parses the JSON-RPC form, refusing (-32602) anything that is not the hex a node would accept. */
export function parseRpcTransaction(value: unknown): ParsedTransactionRequest {
  if (typeof value !== 'object' || value === null) throw invalid('the transaction must be an object');
  const tx = value as RpcTransactionRequest;
  const out: ParsedTransactionRequest = {};
  if (tx.from !== undefined) out.from = address(tx.from, 'from');
  if (tx.to !== undefined && tx.to !== null) out.to = address(tx.to, 'to');
  // Both names are in use (geth prefers `input`); two different payloads are refused, as geth does,
  // since the approval prompt might show one while the other would be signed.
  if (tx.data !== undefined && tx.input !== undefined && String(tx.data).toLowerCase() !== String(tx.input).toLowerCase()) {
    throw invalid('data and input are both set and differ');
  }
  const data = tx.data ?? tx.input;
  if (data !== undefined) {
    if (!isHex(data, { strict: true }) || data.length % 2 !== 0) throw invalid('data must be hex bytes');
    out.data = data;
  }
  for (const field of ['value', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const) {
    if (tx[field] !== undefined) out[field] = hexToBigInt(quantity(tx[field], field));
  }
  if (tx.nonce !== undefined) out.nonce = hexToNumber(quantity(tx.nonce, 'nonce'));
  if (tx.chainId !== undefined) out.chainId = hexToNumber(quantity(tx.chainId, 'chainId'));
  if (tx.type !== undefined) {
    const type = TYPES[tx.type as keyof typeof TYPES];
    if (!type) throw invalid(`unsupported transaction type ${String(tx.type)}`);
    out.type = type;
  }
  if (tx.accessList !== undefined) out.accessList = tx.accessList;
  // Fields the chosen type has no place for would be dropped from what is signed: refused instead.
  if (out.gasPrice !== undefined && (out.maxFeePerGas !== undefined || out.maxPriorityFeePerGas !== undefined || out.type === 'eip1559')) {
    throw invalid('gasPrice cannot be combined with maxFeePerGas, maxPriorityFeePerGas or type 0x2');
  }
  if (out.accessList !== undefined && out.type === 'legacy') throw invalid('a legacy (type 0x0) transaction has no accessList');
  return out;
}

function address(value: unknown, field: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) throw invalid(`${field} is not an address`);
  return value;
}

function quantity(value: unknown, field: string): Hex {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) throw invalid(`${field} must be a hex quantity`);
  return value as Hex;
}

const invalid = (message: string) => new ProviderRpcError(PROVIDER_ERROR_CODES.INVALID_PARAMS, message);
