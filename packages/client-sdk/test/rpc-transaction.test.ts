import { parseTransaction, recoverTransactionAddress, type Hex } from 'viem';
import { localhost } from 'viem/chains';
import { PROVIDER_ERROR_CODES as CODES, SvcEthereumProvider } from '../src/ethereum.js';
import type { Signers } from '../src/index.js';
import { localSigners } from './helpers/local-signers.js';

// eth_signTransaction needs no node: the provider signs the fields as the dapp sent them.
const signers = localSigners();
const provider = new SvcEthereumProvider({ signers: async (): Promise<Signers> => signers }, { chains: [localhost], rpcUrls: { [localhost.id]: 'http://127.0.0.1:9' } });
const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
let from: Hex;

beforeAll(async () => {
  [from] = (await provider.request({ method: 'eth_requestAccounts' })) as [Hex];
});

const sign = (tx: Record<string, unknown>) => provider.request({ method: 'eth_signTransaction', params: [{ from, to, gas: '0x5208', nonce: '0x7', ...tx }] }) as Promise<Hex>;
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'signed', (err: { code?: number }) => err.code);

describe('eth_signTransaction refuses fields it would otherwise drop from what is signed', () => {
  it('refuses data and input that differ (the prompt may show one, the other would be signed)', async () => {
    expect(await codeOf(sign({ gasPrice: '0x1', data: '0x01', input: '0x02' }))).toBe(CODES.INVALID_PARAMS);
    const same = parseTransaction(await sign({ gasPrice: '0x1', data: '0xAB', input: '0xab' }));
    expect(same.data).toBe('0xab');
    expect(parseTransaction(await sign({ gasPrice: '0x1', input: '0x02' })).data).toBe('0x02');
  });

  it('refuses odd-length data instead of signing it zero-padded', async () => {
    expect(await codeOf(sign({ gasPrice: '0x1', data: '0x123' }))).toBe(CODES.INVALID_PARAMS);
  });

  it('refuses gasPrice beside EIP-1559 fee fields or type 0x2', async () => {
    expect(await codeOf(sign({ gasPrice: '0x10', maxFeePerGas: '0x20' }))).toBe(CODES.INVALID_PARAMS);
    expect(await codeOf(sign({ gasPrice: '0x10', maxPriorityFeePerGas: '0x1' }))).toBe(CODES.INVALID_PARAMS);
    expect(await codeOf(sign({ type: '0x2', gasPrice: '0x10' }))).toBe(CODES.INVALID_PARAMS);
  });

  it('refuses an accessList on a type 0x0 transaction', async () => {
    expect(await codeOf(sign({ type: '0x0', gasPrice: '0x1', accessList: [{ address: to, storageKeys: [] }] }))).toBe(CODES.INVALID_PARAMS);
  });

  it('still signs each consistent type with what was asked, recovering to the wallet', async () => {
    const legacy = await sign({ gasPrice: '0x3b9aca00', value: '0x1' });
    expect(parseTransaction(legacy)).toMatchObject({ type: 'legacy', chainId: localhost.id, nonce: 7, gasPrice: 1_000_000_000n, v: BigInt(localhost.id * 2 + 35) + BigInt(parseTransaction(legacy).yParity!) });
    const accessList = [{ address: to.toLowerCase(), storageKeys: [] }];
    expect(parseTransaction(await sign({ type: '0x1', gasPrice: '0x1', accessList }))).toMatchObject({ type: 'eip2930', gasPrice: 1n, accessList });
    const dynamic = await sign({ type: '0x2', maxFeePerGas: '0x20', maxPriorityFeePerGas: '0x1' });
    expect(parseTransaction(dynamic)).toMatchObject({ type: 'eip1559', chainId: localhost.id, maxFeePerGas: 32n, maxPriorityFeePerGas: 1n });
    for (const tx of [legacy, dynamic]) await expect(recoverTransactionAddress({ serializedTransaction: tx as never })).resolves.toBe(from);
  });
});
