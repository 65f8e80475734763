import {
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  http,
  parseEther,
  parseGwei,
  recoverTransactionAddress,
  verifyMessage,
  verifyTypedData,
  type Chain,
} from 'viem';
import { mainnet } from 'viem/chains';
import { EthereumWallet, PROVIDER_ERROR_CODES as CODES, SvcEthereumProvider, type EthereumApproval, type EthereumProviderOptions } from '../src/ethereum.js';
import { SvcError, type Signers } from '../src/index.js';
import { startLocalEvm, type LocalEvmNode } from './helpers/ganache-node.js';
import { localSigners } from './helpers/local-signers.js';

/*
 * The EIP-1193 provider driven by viem's own client (`custom(provider)`), against a real EVM
 * node (ganache): signatures verified by viem, transactions mined, reads forwarded, and the
 * provider error codes a dapp switches on.
 */

const signers = localSigners();
const source = { signers: async (): Promise<Signers> => signers };
const address = new EthereumWallet(signers.secp256k1).address;
const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
// Chain 1 is configured with a node that refuses connections: reads on it are "chain disconnected".
const unreachableMainnet: Chain = { ...mainnet, rpcUrls: { default: { http: ['http://127.0.0.1:9'] } } };

const mail = (chainId: number) =>
  ({
    domain: { name: 'Ether Mail', version: '1', chainId, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
    types: { Mail: [{ name: 'contents', type: 'string' }] },
    primaryType: 'Mail',
    message: { contents: 'Hello, Bob!' },
  }) as const;

let node: LocalEvmNode;
let local: Chain;

beforeAll(async () => {
  node = await startLocalEvm();
  local = defineChain({ id: node.chainId, name: 'ganache', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
  const dev = createWalletClient({ account: node.devAccount, transport: http(node.url) });
  const reader = createPublicClient({ transport: http(node.url) });
  await reader.waitForTransactionReceipt({ hash: await dev.sendTransaction({ to: address, value: parseEther('2'), chain: null }) });
});

afterAll(async () => {
  await node?.close();
});

/** A provider over the local signers, its recorded events and confirm calls; `answer` is what the confirm hook says. */
function setUp(options: Partial<EthereumProviderOptions> = {}, answer = true) {
  const approvals: EthereumApproval[] = [];
  const events: [string, unknown][] = [];
  const provider = new SvcEthereumProvider(source, {
    chains: [local, unreachableMainnet],
    confirm: (approval) => {
      approvals.push(approval);
      return answer;
    },
    ...options,
  });
  for (const event of ['connect', 'disconnect', 'chainChanged', 'accountsChanged'] as const) {
    provider.on(event, (arg: unknown) => events.push([event, arg]));
  }
  const client = createWalletClient({ account: address, chain: local, transport: custom(provider) });
  return { provider, client, approvals, events };
}

async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeDefined();
  return (err as { code?: number }).code;
}

describe('EIP-1193 provider: accounts and connection', () => {
  it('exposes no account until eth_requestAccounts, then the wallet address (accountsChanged)', async () => {
    const { provider, approvals, events } = setUp();
    await Promise.resolve(); // the connect event is emitted once listeners could be added
    expect(events).toEqual([['connect', { chainId: '0x539' }]]);
    await expect(provider.request({ method: 'eth_accounts' })).resolves.toEqual([]);
    await expect(provider.request({ method: 'eth_chainId' })).resolves.toBe('0x539');
    expect(await codeOf(provider.request({ method: 'personal_sign', params: ['0x68690a', address] }))).toBe(CODES.UNAUTHORIZED);

    await expect(provider.request({ method: 'eth_requestAccounts' })).resolves.toEqual([address]);
    await expect(provider.request({ method: 'eth_accounts' })).resolves.toEqual([address]);
    expect(approvals.map((a) => a.method)).toEqual(['eth_requestAccounts']);
    expect(events.at(-1)).toEqual(['accountsChanged', [address]]);
  });

  it('answers 4001 when the confirm hook refuses, and 4100 when the wallet is signed out', async () => {
    const refused = setUp({}, false);
    expect(await codeOf(refused.provider.request({ method: 'eth_requestAccounts' }))).toBe(CODES.USER_REJECTED);
    await expect(refused.provider.request({ method: 'eth_accounts' })).resolves.toEqual([]);

    const signedOut = new SvcEthereumProvider({ signers: () => Promise.reject(new SvcError('NOT_SIGNED_IN', 'sign in first')) }, { chains: [local] });
    expect(await codeOf(signedOut.request({ method: 'eth_requestAccounts' }))).toBe(CODES.UNAUTHORIZED);
  });

  it('after disconnect() answers 4900 until eth_requestAccounts reconnects it', async () => {
    const { provider, events } = setUp();
    await provider.request({ method: 'eth_requestAccounts' });
    events.length = 0;
    provider.disconnect();
    expect(events).toEqual([
      ['accountsChanged', []],
      ['disconnect', expect.objectContaining({ code: CODES.DISCONNECTED })],
    ]);
    expect(await codeOf(provider.request({ method: 'eth_blockNumber' }))).toBe(CODES.DISCONNECTED);
    expect(await codeOf(provider.request({ method: 'personal_sign', params: ['0x00', address] }))).toBe(CODES.DISCONNECTED);
    await expect(provider.request({ method: 'eth_requestAccounts' })).resolves.toEqual([address]);
    expect(events.slice(2)).toEqual([
      ['connect', { chainId: '0x539' }],
      ['accountsChanged', [address]],
    ]);
  });

  it('refuses signing schemes it does not offer (4200) and a foreign `from` (4100)', async () => {
    const { provider } = setUp();
    await provider.request({ method: 'eth_requestAccounts' });
    expect(await codeOf(provider.request({ method: 'eth_sign', params: [address, '0x' + '11'.repeat(32)] }))).toBe(CODES.UNSUPPORTED_METHOD);
    expect(await codeOf(provider.request({ method: 'wallet_addEthereumChain', params: [{}] }))).toBe(CODES.UNSUPPORTED_METHOD);
    expect(await codeOf(provider.request({ method: 'personal_sign', params: ['0x00', recipient] }))).toBe(CODES.UNAUTHORIZED);
    expect(await codeOf(provider.request({ method: 'eth_sendTransaction', params: [{ from: recipient, to: address, value: '0x1' }] }))).toBe(CODES.UNAUTHORIZED);
    expect(await codeOf(provider.request({ method: 'eth_sendTransaction', params: [{ from: address, to: address, value: 'ten' }] }))).toBe(CODES.INVALID_PARAMS);
  });
});

describe("EIP-1193 provider under viem's wallet client", () => {
  it('signs messages and typed data that viem verifies, asking the confirm hook each time', async () => {
    const { provider, client, approvals } = setUp();
    await client.requestAddresses();
    const signature = await client.signMessage({ message: 'hello from a dapp' });
    await expect(verifyMessage({ address, message: 'hello from a dapp', signature })).resolves.toBe(true);
    const raw = await client.signMessage({ message: { raw: '0x00ff10' } });
    await expect(verifyMessage({ address, message: { raw: '0x00ff10' }, signature: raw })).resolves.toBe(true);

    const typed = await client.signTypedData(mail(node.chainId));
    await expect(verifyTypedData({ address, ...mail(node.chainId), signature: typed })).resolves.toBe(true);
    expect(approvals.map((a) => a.method)).toEqual(['eth_requestAccounts', 'personal_sign', 'personal_sign', 'eth_signTypedData_v4']);
    expect(approvals.every((a) => a.chainId === node.chainId)).toBe(true);
    expect(provider.chainId).toBe(node.chainId);
  });

  it('refuses typed data for another chain than the active one (4901), and a refused confirm is 4001', async () => {
    const { client } = setUp();
    await client.requestAddresses();
    expect(await codeOf(client.signTypedData(mail(1)))).toBe(CODES.CHAIN_DISCONNECTED);

    let allow = false;
    const strict = new SvcEthereumProvider(source, { chains: [local], confirm: ({ method }) => method === 'eth_requestAccounts' || allow });
    const strictClient = createWalletClient({ account: address, chain: local, transport: custom(strict) });
    await strictClient.requestAddresses();
    expect(await codeOf(strictClient.signMessage({ message: 'no' }))).toBe(CODES.USER_REJECTED);
    allow = true;
    await expect(strictClient.signMessage({ message: 'yes' })).resolves.toMatch(/^0x[0-9a-f]{130}$/);
  });

  it('sends a transaction the node mines from the wallet, and forwards reads to the node', async () => {
    const { client, provider } = setUp();
    await client.requestAddresses();
    const reader = createPublicClient({ chain: local, transport: custom(provider) });
    const before = await reader.getBalance({ address: recipient });

    const hash = await client.sendTransaction({ to: recipient, value: parseEther('0.25') });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(receipt).toMatchObject({ status: 'success', from: address.toLowerCase() });
    expect(await reader.getBalance({ address: recipient })).toBe(before + parseEther('0.25'));

    // A node's own refusal keeps its JSON-RPC code (ganache: -32003 for insufficient funds).
    expect(await codeOf(provider.request({ method: 'eth_sendTransaction', params: [{ from: address, to: recipient, value: '0x' + parseEther('100').toString(16) }] }))).toBe(-32003);
    // A transaction for another chain is refused before anything is signed.
    expect(await codeOf(provider.request({ method: 'eth_sendTransaction', params: [{ from: address, to: recipient, value: '0x1', chainId: '0x1' }] }))).toBe(CODES.CHAIN_DISCONNECTED);
  });

  it('signs a transaction (eth_signTransaction) for the active chain', async () => {
    const { client } = setUp();
    await client.requestAddresses();
    const signed = await client.signTransaction({ to: recipient, value: 1n, nonce: 3, gas: 21_000n, maxFeePerGas: parseGwei('2'), maxPriorityFeePerGas: parseGwei('1') });
    await expect(recoverTransactionAddress({ serializedTransaction: signed })).resolves.toBe(address);
  });
});

describe('EIP-1193 provider: wallet_switchEthereumChain', () => {
  it('switches between configured chains (chainChanged), refuses unknown ones with 4902', async () => {
    const { provider, client, events } = setUp();
    await client.requestAddresses();
    events.length = 0;
    expect(await codeOf(client.switchChain({ id: 42 }))).toBe(CODES.UNRECOGNIZED_CHAIN);

    await client.switchChain({ id: 1 });
    expect(events).toEqual([['chainChanged', '0x1']]);
    await expect(provider.request({ method: 'eth_chainId' })).resolves.toBe('0x1');
    // On chain 1 typed data for chain 1 is signed, for the local chain refused.
    const onMainnet = createWalletClient({ account: address, transport: custom(provider) });
    const typed = await onMainnet.signTypedData(mail(1));
    await expect(verifyTypedData({ address, ...mail(1), signature: typed })).resolves.toBe(true);
    expect(await codeOf(onMainnet.signTypedData(mail(node.chainId)))).toBe(CODES.CHAIN_DISCONNECTED);
    // Chain 1's node is unreachable: reads are "chain disconnected".
    expect(await codeOf(provider.request({ method: 'eth_blockNumber' }))).toBe(CODES.CHAIN_DISCONNECTED);

    await client.switchChain({ id: node.chainId });
    expect(events.at(-1)).toEqual(['chainChanged', '0x539']);
    await expect(provider.request({ method: 'eth_blockNumber' })).resolves.toMatch(/^0x[0-9a-f]+$/);
  });
});
