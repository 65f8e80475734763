import { randomBytes } from 'node:crypto';
import { compileOffchainMessageEnvelope, createNoopSigner, getTransactionDecoder, getTransactionEncoder, type Address } from '@solana/kit';
import { SvcError, type Signers } from '../src/index.js';
import { registerStandardWallet, SvcStandardWallet, type StandardWalletAccount } from '../src/solana.js';
import { localSigners } from './helpers/local-signers.js';
import { kitVerifies, opensslVerifies, transfer } from './helpers/svm-verify.js';

/*
 * The SVM wallet as a Solana Wallet Standard wallet, found the way a dapp finds wallets: the
 * app side of the standard's window-event protocol (what getWallets() of @wallet-standard/app
 * does) over a bare EventTarget as window, then the standard features called as a dapp or
 * @solana/wallet-adapter calls them, each signature verified by kit and OpenSSL.
 */

const signers = localSigners();
const signedIn = { signers: async (): Promise<Signers> => signers };
const icon = 'data:image/svg+xml;base64,PHN2Zy8+' as const;

/** The app side of the protocol: announces itself (app-ready) and listens for registrations. */
function standardApp(window: EventTarget): Set<unknown> {
  const wallets = new Set<unknown>();
  const api = {
    register(wallet: unknown) {
      wallets.add(wallet);
      return () => wallets.delete(wallet);
    },
  };
  window.addEventListener('wallet-standard:register-wallet', (event) => (event as CustomEvent<(a: typeof api) => void>).detail(api));
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }));
  return wallets;
}

describe('registerStandardWallet', () => {
  it('reaches apps loaded before and after it, and unregisters from both', () => {
    const window = new EventTarget();
    const early = standardApp(window);
    const wallet = new SvcStandardWallet(signedIn, { name: 'Svc', icon });
    const unregister = registerStandardWallet(wallet, window);
    const late = standardApp(window);
    expect([...early]).toEqual([wallet]);
    expect([...late]).toEqual([wallet]);

    unregister();
    expect(early.size).toBe(0);
    expect(late.size).toBe(0);
    expect(standardApp(window).size).toBe(0); // no longer answers app-ready
  });
});

describe('SvcStandardWallet features', () => {
  const destination = '11111111111111111111111111111112' as Address;

  async function connected() {
    const wallet = new SvcStandardWallet(signedIn, { name: 'Svc', icon, chains: ['solana:devnet'] });
    const changes: (readonly StandardWalletAccount[] | undefined)[] = [];
    wallet.features['standard:events'].on('change', ({ accounts }) => changes.push(accounts));
    const { accounts } = await wallet.features['standard:connect'].connect();
    return { wallet, account: accounts[0]!, changes };
  }

  it('has the standard shape and no account until connected', () => {
    const wallet = new SvcStandardWallet(signedIn, { name: 'Svc', icon });
    expect(wallet).toMatchObject({ version: '1.0.0', name: 'Svc', icon, chains: ['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'], accounts: [] });
    expect(Object.keys(wallet.features).sort()).toEqual(['solana:signMessage', 'solana:signTransaction', 'standard:connect', 'standard:disconnect', 'standard:events']);
    expect(wallet.features['solana:signTransaction'].supportedTransactionVersions).toEqual(['legacy', 0]);
  });

  it('connects to the signed-in wallet: one account, announced by a change event', async () => {
    const { wallet, account, changes } = await connected();
    expect(account).toEqual({ address: expect.any(String), publicKey: signers.ed25519.publicKey, chains: ['solana:devnet'], features: ['solana:signMessage', 'solana:signTransaction'] });
    expect(wallet.accounts).toEqual([account]);
    expect(changes).toEqual([[account]]);
  });

  it('solana:signMessage signs each message; kit and OpenSSL verify', async () => {
    const { wallet, account } = await connected();
    const messages = ['first', 'second'].map((m) => new TextEncoder().encode(m));
    const out = await wallet.features['solana:signMessage'].signMessage(...messages.map((message) => ({ account, message })));
    expect(out).toHaveLength(2);
    for (const [i, { signedMessage, signature, signatureType }] of out.entries()) {
      expect(signatureType).toBe('ed25519');
      expect(signedMessage).toEqual(messages[i]);
      expect(await kitVerifies(account.address as Address, signature, signedMessage)).toBe(true);
      expect(opensslVerifies(account.publicKey, signature, signedMessage)).toBe(true);
    }
  });

  it('solana:signMessage refuses the message bytes of a legacy or v0 transaction, signs text, random and off-chain bytes', async () => {
    const { wallet, account } = await connected();
    const address = account.address as Address;
    for (const version of ['legacy', 0] as const) {
      const tx = transfer({ feePayer: address, source: createNoopSigner(address), destination, amount: 5n, version });
      const err = await wallet.features['solana:signMessage'].signMessage({ account, message: new Uint8Array(tx.messageBytes) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SvcError);
      expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', status: 0 });
    }
    const offchain = compileOffchainMessageEnvelope({ version: 1, requiredSignatories: [{ address }], content: 'Sign in to dapp.example' }).content;
    const messages = [new TextEncoder().encode('Sign in to dapp.example'), new Uint8Array(randomBytes(512)), new Uint8Array(offchain)];
    const out = await wallet.features['solana:signMessage'].signMessage(...messages.map((message) => ({ account, message })));
    for (const [i, { signedMessage, signature }] of out.entries()) {
      expect(signedMessage).toEqual(messages[i]);
      expect(await kitVerifies(address, signature, signedMessage)).toBe(true);
      expect(opensslVerifies(account.publicKey, signature, signedMessage)).toBe(true);
    }
  });

  it('solana:signTransaction signs wire transactions over their message bytes', async () => {
    const { wallet, account } = await connected();
    const address = account.address as Address;
    const wire = new Uint8Array(getTransactionEncoder().encode(transfer({ feePayer: address, source: createNoopSigner(address), destination, amount: 5n })));
    const [out] = await wallet.features['solana:signTransaction'].signTransaction({ account, transaction: wire, chain: 'solana:devnet' });
    const signed = getTransactionDecoder().decode(out!.signedTransaction);
    expect(await kitVerifies(address, signed.signatures[address]!, new Uint8Array(signed.messageBytes))).toBe(true);
  });

  it('refuses another account, and everything once disconnected', async () => {
    const { wallet, account, changes } = await connected();
    const message = new TextEncoder().encode('x');
    const other = { ...account, address: destination };
    await expect(wallet.features['solana:signMessage'].signMessage({ account: other, message })).rejects.toMatchObject({ code: 'NOT_A_SIGNER' });

    await wallet.features['standard:disconnect'].disconnect();
    expect(wallet.accounts).toEqual([]);
    expect(changes).toEqual([[account], []]);
    await expect(wallet.features['solana:signMessage'].signMessage({ account, message })).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
  });

  it('does not connect while the user is not signed in', async () => {
    const signedOut = { signers: () => Promise.reject(new SvcError('NOT_SIGNED_IN', 'sign in first')) };
    const wallet = new SvcStandardWallet(signedOut, { name: 'Svc', icon });
    await expect(wallet.features['standard:connect'].connect()).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
    expect(wallet.accounts).toEqual([]);
  });
});
