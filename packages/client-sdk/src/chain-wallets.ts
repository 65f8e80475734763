import { CosmosWallet, type CosmosWalletOptions } from './chains/cosmos/cosmos-wallet.js';
import { EthereumWallet, type EthereumWalletOptions } from './chains/ethereum/ethereum-wallet.js';
import { SvmWallet, type SvmWalletOptions } from './chains/svm/svm-wallet.js';
import type { Signers, SignersSource } from './signers.js';

export interface ChainWalletsOptions {
  ethereum?: EthereumWalletOptions;
  cosmos?: CosmosWalletOptions;
  svm?: SvmWalletOptions;
}

export interface ChainWallets {
  ethereum: EthereumWallet;
  cosmos: CosmosWallet;
  svm: SvmWallet;
}

/*
 * `@svc/client-sdk/chains`: every chain family at once, for apps that use all three (it loads
 * viem, @cosmjs and @solana/kit; an app using one family imports its own entry point instead).
 */

/** The three method families of spec §1 over one set of signers (one wallet, two curves). */
export function createChainWallets(signers: Signers, options: ChainWalletsOptions = {}): ChainWallets {
  return {
    ethereum: new EthereumWallet(signers.secp256k1, options.ethereum),
    cosmos: new CosmosWallet(signers.secp256k1, options.cosmos),
    svm: new SvmWallet(signers.ed25519, options.svm),
  };
}

/** The three chain wallets of a signed-in SvcWallet (its shares must be on this device). */
export async function chainWallets(wallet: SignersSource, options: ChainWalletsOptions = {}): Promise<ChainWallets> {
  return createChainWallets(await wallet.signers(), options);
}
