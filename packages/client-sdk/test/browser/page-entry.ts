// The browser page's script: the SDK bundle (src/index.ts and the chain entry points) plus a small journey the test
// drives step by step through page.evaluate. Uses the browser's own fetch and IndexedDB.
import { chainWallets } from '../../src/chain-wallets.js';
import { IndexedDbShareStorage, SvcError, SvcWallet } from '../../src/index.js';

interface Journey {
  start(gatewayUrl: string, apiKey: string, email: string): Promise<void>;
  finish(email: string, code: string): Promise<{ status: string; keygen: boolean; publicKey: string; signature: string; ecdsa: string; ethereumAddress: string }>;
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
  async restore(gatewayUrl, apiKey) {
    const reloaded = new SvcWallet({ gatewayUrl, apiKey, storage: new IndexedDbShareStorage('svc-wallet-browser-test') });
    const outcome = await reloaded.restore();
    const signature = await (await reloaded.signers()).ed25519.sign(new TextEncoder().encode('signed after a reload'));
    const publicKey = reloaded.user!.wallets.find((w) => w.curve === 'ed25519')!.public_key;
    return { status: outcome?.status ?? null, publicKey, signature: hex(signature) };
  },
};

(globalThis as { journey?: Journey }).journey = journey;
