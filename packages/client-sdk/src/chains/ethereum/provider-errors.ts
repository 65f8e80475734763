import { SvcError } from '../../errors.js';

/**
 * The error codes of EIP-1193 (provider errors) and EIP-1474 (JSON-RPC errors) the provider
 * answers with; viem, wagmi and dapps switch on these numbers.
 */
export const PROVIDER_ERROR_CODES = {
  USER_REJECTED: 4001, // the confirm hook said no
  UNAUTHORIZED: 4100, // no account connected (eth_requestAccounts first), signed out, or another `from`
  UNSUPPORTED_METHOD: 4200,
  DISCONNECTED: 4900, // the provider was disconnected: eth_requestAccounts reconnects it
  CHAIN_DISCONNECTED: 4901, // the request is for another chain than the active one, or its node is unreachable
  UNRECOGNIZED_CHAIN: 4902, // wallet_switchEthereumChain to a chain the app did not configure
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/** The error every `request` rejects with: `{ code, message, data? }` as EIP-1193 specifies. */
export class ProviderRpcError extends Error {
  override readonly name = 'ProviderRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Whatever a request failed with, as a ProviderRpcError (SDK errors keep their code in `data`). */
export function toProviderRpcError(err: unknown): ProviderRpcError {
  if (err instanceof ProviderRpcError) return err;
  if (err instanceof SvcError) {
    switch (err.code) {
      case 'NOT_SIGNED_IN':
      case 'NO_LOCAL_SHARE':
        return new ProviderRpcError(PROVIDER_ERROR_CODES.UNAUTHORIZED, err.msg, { svcCode: err.code }, { cause: err });
      case 'INVALID_ARGUMENT':
        return new ProviderRpcError(PROVIDER_ERROR_CODES.INVALID_PARAMS, err.msg, { svcCode: err.code }, { cause: err });
      case 'RPC_ERROR':
        // The node's own JSON-RPC code (insufficient funds, nonce too low...) when it gave one.
        return new ProviderRpcError(nodeCodeOf(err) ?? PROVIDER_ERROR_CODES.INTERNAL_ERROR, err.msg, { svcCode: err.code }, { cause: err });
      default:
        return new ProviderRpcError(PROVIDER_ERROR_CODES.INTERNAL_ERROR, err.msg, { svcCode: err.code }, { cause: err });
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderRpcError(PROVIDER_ERROR_CODES.INTERNAL_ERROR, message, undefined, { cause: err });
}

/** The first numeric JSON-RPC `code` down an error's cause chain. */
function nodeCodeOf(err: unknown): number | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number' && Number.isInteger(code)) return code;
  }
  return undefined;
}
