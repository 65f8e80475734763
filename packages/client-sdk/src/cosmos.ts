/**
 * `@svc/client-sdk/cosmos`: the Cosmos methods of spec §1 (amino, direct, ADR-036) over a
 * wallet's secp256k1 signer. Its own entry point, so that only apps that use it load @cosmjs.
 */
import { CosmosWallet, type CosmosWalletOptions } from './chains/cosmos/cosmos-wallet.js';
import type { SignersSource } from './signers.js';

export { CosmosWallet, type CosmosWalletOptions } from './chains/cosmos/cosmos-wallet.js';
export { adr036SignDoc, verifyAdr036 } from './chains/cosmos/adr036.js';

/** The Cosmos wallet of a signed-in SvcWallet (its shares must be on this device). */
export async function cosmosWallet(wallet: SignersSource, options?: CosmosWalletOptions): Promise<CosmosWallet> {
  return new CosmosWallet((await wallet.signers()).secp256k1, options);
}
