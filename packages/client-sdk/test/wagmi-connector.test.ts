import { connect, createConfig, disconnect, getAccount, sendTransaction, signMessage, signTypedData, switchChain, waitForTransactionReceipt } from '@wagmi/core';
import { createPublicClient, createWalletClient, defineChain, http, parseEther, verifyMessage, verifyTypedData } from 'viem';
import { mainnet } from 'viem/chains';
import { EthereumWallet } from '../src/ethereum.js';
import type { Signers } from '../src/index.js';
import { svcConnector } from '../src/wagmi.js';
import { startLocalEvm, type LocalEvmNode } from './helpers/ganache-node.js';
import { localSigners } from './helpers/local-signers.js';

/* The connector in wagmi's own config and actions, against a real EVM node (ganache). */

const signers = localSigners();
const address = new EthereumWallet(signers.secp256k1).address;
const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;

// The node's URL is known once it listens: the connector and wagmi get it through rpcUrls / transports.
const local = defineChain({ id: 1337, name: 'ganache', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } });
let node: LocalEvmNode;

beforeAll(async () => {
  node = await startLocalEvm(local.id);
  const dev = createWalletClient({ account: node.devAccount, transport: http(node.url) });
  const reader = createPublicClient({ transport: http(node.url) });
  await reader.waitForTransactionReceipt({ hash: await dev.sendTransaction({ to: address, value: parseEther('1'), chain: null }) });
});

afterAll(async () => {
  await node?.close();
});

describe('svcConnector under wagmi (createConfig + actions)', () => {
  it('connects, signs a message and typed data, sends a transaction, switches chain and disconnects', async () => {
    const approved: string[] = [];
    const config = createConfig({
      chains: [local, mainnet],
      connectors: [svcConnector({ wallet: { signers: async (): Promise<Signers> => signers }, rpcUrls: { [local.id]: node.url, [mainnet.id]: 'http://127.0.0.1:9' }, confirm: ({ method }) => (approved.push(method), true) })],
      transports: { [local.id]: http(node.url), [mainnet.id]: http('http://127.0.0.1:9') },
      multiInjectedProviderDiscovery: false,
    });

    const connected = await connect(config, { connector: config.connectors[0]! });
    expect(connected).toEqual({ accounts: [address], chainId: node.chainId });
    expect(getAccount(config)).toMatchObject({ status: 'connected', address, chainId: node.chainId });

    const signature = await signMessage(config, { message: 'hello wagmi' });
    await expect(verifyMessage({ address, message: 'hello wagmi', signature })).resolves.toBe(true);
    const typedData = { domain: { name: 'wagmi test', chainId: node.chainId }, types: { Note: [{ name: 'text', type: 'string' }] }, primaryType: 'Note', message: { text: 'hi' } } as const;
    const typed = await signTypedData(config, typedData);
    await expect(verifyTypedData({ address, ...typedData, signature: typed })).resolves.toBe(true);

    const hash = await sendTransaction(config, { to: recipient, value: parseEther('0.1') });
    await expect(waitForTransactionReceipt(config, { hash })).resolves.toMatchObject({ status: 'success', from: address.toLowerCase() });

    await switchChain(config, { chainId: mainnet.id });
    expect(getAccount(config).chainId).toBe(mainnet.id);
    await expect(signMessage(config, { message: 'on mainnet' })).resolves.toMatch(/^0x[0-9a-f]{130}$/);
    expect(approved).toEqual(['eth_requestAccounts', 'personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'wallet_switchEthereumChain', 'personal_sign']);

    await disconnect(config);
    expect(getAccount(config).status).toBe('disconnected');
  });

  it('a refused connection leaves wagmi disconnected with the 4001 error', async () => {
    const config = createConfig({
      chains: [local],
      connectors: [svcConnector({ wallet: { signers: async (): Promise<Signers> => signers }, confirm: () => false })],
      transports: { [local.id]: http(node.url) },
      multiInjectedProviderDiscovery: false,
    });
    await expect(connect(config, { connector: config.connectors[0]! })).rejects.toMatchObject({ code: 4001 });
    expect(getAccount(config).status).toBe('disconnected');
  });
});
