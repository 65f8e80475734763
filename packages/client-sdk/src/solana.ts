/**
 * `@svc/client-sdk/solana`: the SVM methods of spec §1 over a wallet's Ed25519 signer. Its own
 * entry point, so that only apps that use it load @solana/kit.
 */
import { SvmWallet, type SvmWalletOptions } from './chains/svm/svm-wallet.js';
import type { SignersSource } from './signers.js';

export { SvmWallet, transactionIdOf, type SvmWalletOptions, type SvmTransactionInput, type SvmSignedMessage } from './chains/svm/svm-wallet.js';
export {
  SvcStandardWallet,
  registerStandardWallet,
  type StandardWalletOptions,
  type StandardWalletAccount,
  type SvcStandardWalletFeatures,
  type SolanaChain,
  type WalletIcon,
} from './chains/svm/wallet-standard.js';

/** The SVM (Solana) wallet of a signed-in SvcWallet (its shares must be on this device). */
export async function svmWallet(wallet: SignersSource, options?: SvmWalletOptions): Promise<SvmWallet> {
  return new SvmWallet((await wallet.signers()).ed25519, options);
}
