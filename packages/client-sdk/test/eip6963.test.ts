import { defineChain, verifyMessage } from 'viem';
import { announceProvider, EthereumWallet, SvcEthereumProvider, type EIP6963ProviderDetail } from '../src/ethereum.js';
import type { Signers } from '../src/index.js';
import { localSigners } from './helpers/local-signers.js';

/*
 * EIP-6963 with a bare EventTarget standing in for `window` (no DOM library): the dapp side is
 * written as the EIP shows it. The same flow runs in headless Chromium (browser.test.ts).
 */

const signers = localSigners();
const chain = defineChain({ id: 1337, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:9'] } } });
const icon = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';

function dappListening(target: EventTarget): EIP6963ProviderDetail[] {
  const seen: EIP6963ProviderDetail[] = [];
  target.addEventListener('eip6963:announceProvider', (event) => seen.push((event as CustomEvent<EIP6963ProviderDetail>).detail));
  return seen;
}

describe('announceProvider (EIP-6963)', () => {
  it('announces at once and again on each eip6963:requestProvider, until stopped', async () => {
    const window = new EventTarget();
    const early = dappListening(window);
    const provider = new SvcEthereumProvider({ signers: async (): Promise<Signers> => signers }, { chains: [chain] });
    const stop = announceProvider(provider, { name: 'Svc Wallet', icon, rdns: 'com.example.svc' }, window);
    expect(early).toHaveLength(1);

    const late = dappListening(window); // a dapp that loads afterwards asks
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    expect(late).toHaveLength(1);
    const [detail] = late;
    expect(detail!.info).toEqual({ uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), name: 'Svc Wallet', icon, rdns: 'com.example.svc' });
    expect(Object.isFrozen(detail) && Object.isFrozen(detail!.info)).toBe(true);
    expect(detail!.info.uuid).toBe(early[0]!.info.uuid); // one uuid per page load

    // The announced provider is the wallet.
    const [account] = (await detail!.provider.request({ method: 'eth_requestAccounts' })) as `0x${string}`[];
    expect(account).toBe(new EthereumWallet(signers.secp256k1).address);
    const signature = (await detail!.provider.request({ method: 'personal_sign', params: ['0x6869', account] })) as `0x${string}`;
    await expect(verifyMessage({ address: account!, message: 'hi', signature })).resolves.toBe(true);

    stop();
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    expect(late).toHaveLength(1);
  });

  it('refuses an icon that is not a data URI and an rdns that is not reverse-DNS', () => {
    const provider = new SvcEthereumProvider({ signers: async (): Promise<Signers> => signers }, { chains: [chain] });
    const target = new EventTarget();
    expect(() => announceProvider(provider, { name: 'x', icon: 'https://example.com/icon.png', rdns: 'com.example' }, target)).toThrow(RangeError);
    expect(() => announceProvider(provider, { name: 'x', icon, rdns: 'wallet' }, target)).toThrow(RangeError);
  });
});
