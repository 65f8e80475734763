import { createConnector } from '@wagmi/core';
import { getAddress, numberToHex, type Address } from 'viem';
import type { SignersSource } from '../../signers.js';
import { SvcEthereumProvider, type EthereumProviderOptions } from './eip1193-provider.js';
import { PROVIDER_ERROR_CODES, ProviderRpcError } from './provider-errors.js';

export interface SvcConnectorOptions extends Pick<EthereumProviderOptions, 'rpcUrls' | 'confirm'> {
  /** The signed-in SvcWallet (or any source of signers). */
  wallet: SignersSource;
  /** How wagmi and wallet pickers show the wallet (defaults: "Svc Wallet", `com.svc.wallet`). */
  name?: string;
  icon?: string;
  rdns?: string;
}

/**
 * A wagmi connector over the EIP-1193 provider, serving the chains of the wagmi config.
 * `connect` is eth_requestAccounts (the confirm hook, then the wallet's signers); `disconnect`
 * is the provider's disconnect. The provider's events become wagmi's change/disconnect events.
 */
export function svcConnector(options: SvcConnectorOptions) {
  const { wallet, name = 'Svc Wallet', icon, rdns = 'com.svc.wallet', ...providerOptions } = options;
  let provider: SvcEthereumProvider | undefined;
  return createConnector<SvcEthereumProvider>((config) => {
    const onAccountsChanged = (accounts: string[]) => connector.onAccountsChanged(accounts);
    const onChainChanged = (chainId: string) => connector.onChainChanged(chainId);
    const onDisconnect = () => connector.onDisconnect();
    const providerOf = () =>
      (provider ??= new SvcEthereumProvider(wallet, { ...providerOptions, chains: config.chains }));
    const connector = {
      id: 'svcWallet',
      name,
      type: 'svcWallet',
      ...(icon === undefined ? {} : { icon }),
      rdns,
      async connect<withCapabilities extends boolean = false>({ chainId, withCapabilities }: { chainId?: number; withCapabilities?: withCapabilities | boolean } = {}) {
        const p = providerOf();
        const accounts = ((await p.request({ method: 'eth_requestAccounts' })) as string[]).map((a) => getAddress(a));
        if (chainId !== undefined && chainId !== p.chainId) await connector.switchChain({ chainId });
        p.removeListener('accountsChanged', onAccountsChanged).on('accountsChanged', onAccountsChanged);
        p.removeListener('chainChanged', onChainChanged).on('chainChanged', onChainChanged);
        p.removeListener('disconnect', onDisconnect).on('disconnect', onDisconnect);
        const listed = withCapabilities ? accounts.map((address) => ({ address, capabilities: {} })) : accounts;
        return { accounts: listed as never as withCapabilities extends true ? readonly { address: Address; capabilities: Record<string, unknown> }[] : readonly Address[], chainId: p.chainId };
      },
      async disconnect() {
        const p = providerOf();
        p.removeListener('accountsChanged', onAccountsChanged).removeListener('chainChanged', onChainChanged).removeListener('disconnect', onDisconnect);
        p.disconnect();
      },
      async getAccounts() {
        return providerOf().accounts;
      },
      async getChainId() {
        return providerOf().chainId;
      },
      async getProvider() {
        return providerOf();
      },
      async isAuthorized() {
        return providerOf().accounts.length > 0;
      },
      async switchChain({ chainId }: { chainId: number }) {
        const chain = config.chains.find((c) => c.id === chainId);
        if (!chain) throw new ProviderRpcError(PROVIDER_ERROR_CODES.UNRECOGNIZED_CHAIN, `chain ${chainId} is not in the wagmi config`);
        await providerOf().request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(chainId) }] });
        return chain;
      },
      onAccountsChanged(accounts: string[]) {
        if (accounts.length === 0) connector.onDisconnect();
        else config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) });
      },
      onChainChanged(chainId: string) {
        config.emitter.emit('change', { chainId: Number(chainId) });
      },
      onDisconnect() {
        config.emitter.emit('disconnect');
      },
    };
    return connector;
  });
}
