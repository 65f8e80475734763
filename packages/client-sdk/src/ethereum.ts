/**
 * `@svc/client-sdk/ethereum`: the Ethereum methods of spec §1 over a wallet's secp256k1 signer.
 * Its own entry point, so that only apps that use it load viem.
 */
import { EthereumWallet, type EthereumWalletOptions } from './chains/ethereum/ethereum-wallet.js';
import type { SignersSource } from './signers.js';

export { EthereumWallet, type EthereumWalletOptions, type EthereumSendRequest } from './chains/ethereum/ethereum-wallet.js';
export { toViemAccount } from './chains/ethereum/viem-account.js';
export { ethereumAddressOf } from './chains/ethereum/ethereum-address.js';

/** The Ethereum wallet of a signed-in SvcWallet (its shares must be on this device). */
export async function ethereumWallet(wallet: SignersSource, options?: EthereumWalletOptions): Promise<EthereumWallet> {
  return new EthereumWallet((await wallet.signers()).secp256k1, options);
}
export {
  SvcEthereumProvider,
  ethereumProvider,
  type EthereumProviderOptions,
  type EthereumApproval,
  type RequestArguments,
} from './chains/ethereum/eip1193-provider.js';
export { ProviderRpcError, PROVIDER_ERROR_CODES } from './chains/ethereum/provider-errors.js';
export type { ProviderEvent, ProviderEvents } from './chains/ethereum/provider-events.js';
export { announceProvider, type EIP6963ProviderInfo, type EIP6963ProviderDetail } from './chains/ethereum/eip6963.js';
