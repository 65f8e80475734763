// The browser page's script: the SDK bundle (src/index.ts and the chain entry points) plus a small journey the test
// drives step by step through page.evaluate. Uses the browser's own fetch and IndexedDB.
import { chainWallets } from '../../src/chain-wallets.js';
import { announceProvider, ethereumProvider, type EIP6963ProviderDetail } from '../../src/ethereum.js';
import { IndexedDbShareStorage, SvcError, SvcWallet } from '../../src/index.js';

interface Journey {
  start(gatewayUrl: string, apiKey: string, email: string): Promise<void>;
  finish(email: string, code: string): Promise<{ status: string; keygen: boolean; publicKey: string; signature: string; ecdsa: string; ethereumAddress: string }>;
  /** A dapp's side of EIP-6963 and EIP-1193: finds the announced wallet, connects, signs. */
  dapp(): Promise<{ rdns: string[]; accounts: string[]; signature: string }>;
  /** As after a reload: a new wallet over the same IndexedDB restores the stored session and signs. */
  restore(gatewayUrl: string, apiKey: string): Promise<{ status: string | null; publicKey: string; signature: string }>;
}

let wallet: SvcWallet | undefined;
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

const journey: Journey = {
  async start(gatewayUrl, apiKey, email) {
    wallet = new SvcWallet({ gatewayUrl, apiKey, storage: new IndexedDbShareStorage('svc-wallet-browser-test') });
    await wallet.requestEmailCode(email);
  },
  async finish(email, code) {
    if (!wallet) throw new Error('start first');
    const outcome = await wallet.signInWithEmail(email, code);
    const keygen = outcome.status === 'needs_keygen';
    if (keygen) await wallet.keygen();
    const chains = await chainWallets(wallet);
    const { signature } = await chains.svm.signMessage('signed in Chromium');
    // Two-party ECDSA in the page: triples, presign and the one-round-trip sign.
    let ecdsa: string;
    try {
      ecdsa = await chains.ethereum.personal_sign('signed in Chromium');
    } catch (err) {
      ecdsa = err instanceof SvcError ? `SvcError:${err.code}:${err.msg}` : `error:${String(err)}`;
    }
    const publicKey = wallet.user!.wallets.find((w) => w.curve === 'ed25519')!.public_key;
    return { status: outcome.status, keygen, publicKey, signature: hex(signature), ecdsa, ethereumAddress: chains.ethereum.address };
  },
  async dapp() {
    if (!wallet) throw new Error('start first');
    const chain = { id: 1337, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:9'] } } };
    announceProvider(ethereumProvider(wallet, { chains: [chain] }), { name: 'Svc Wallet', icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>', rdns: 'com.example.svc' });
    // The dapp loads after the wallet: it listens, then asks.
    const found: EIP6963ProviderDetail[] = [];
    window.addEventListener('eip6963:announceProvider', (e) => found.push((e as CustomEvent<EIP6963ProviderDetail>).detail));
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    const { provider } = found[0]!;
    const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
    const signature = (await provider.request({ method: 'personal_sign', params: ['0x' + hex(new TextEncoder().encode('found by EIP-6963')), accounts[0]] })) as string;
    return { rdns: found.map((d) => d.info.rdns), accounts, signature };
  },
  async restore(gatewayUrl, apiKey) {
    const reloaded = new SvcWallet({ gatewayUrl, apiKey, storage: new IndexedDbShareStorage('svc-wallet-browser-test') });
    const outcome = await reloaded.restore();
    // As after a real reload, the restored wallet is the page's wallet from now on: its refresh
    // (signin_silently) retired the first instance's token, whose session has therefore ended.
    wallet = reloaded;
    const signature = await (await reloaded.signers()).ed25519.sign(new TextEncoder().encode('signed after a reload'));
    const publicKey = reloaded.user!.wallets.find((w) => w.curve === 'ed25519')!.public_key;
    return { status: outcome?.status ?? null, publicKey, signature: hex(signature) };
  },
};

(globalThis as { journey?: Journey }).journey = journey;
