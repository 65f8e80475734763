import { randomBytes } from 'node:crypto';
import {
  assertIsFullySignedTransaction,
  compileOffchainMessageEnvelope,
  getCompiledTransactionMessageDecoder,
  createKeyPairSignerFromPrivateKeyBytes,
  createNoopSigner,
  createSignableMessage,
  isMessagePartialSigner,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Encoder,
  getTransactionDecoder,
  getTransactionEncoder,
  lamports,
  partiallySignTransaction,
  signTransactionMessageWithSigners,
  appendTransactionMessageInstruction,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type SignatureBytes,
  type TransactionSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { SvcError } from '../src/index.js';
import { SvmWallet, transactionIdOf } from '../src/solana.js';
import { startLocalSvm, type LocalSvm } from './helpers/litesvm-rpc.js';
import { localSigners } from './helpers/local-signers.js';
import { kitVerifies, OFFLINE_BLOCKHASH, opensslVerifies, SOL, transfer } from './helpers/svm-verify.js';

const signers = localSigners();
const wallet = new SvmWallet(signers.ed25519);

describe('SVM address', () => {
  it('is the base58 Ed25519 public key, as kit derives it from the same seed', async () => {
    const reference = await createKeyPairSignerFromPrivateKeyBytes(signers.ed25519Seed);
    expect(wallet.address).toBe(reference.address);
  });
});

describe('signMessage', () => {
  it('signs bytes and UTF-8 text; kit (WebCrypto) and OpenSSL verify the signature', async () => {
    for (const message of [Uint8Array.from([1, 2, 3, 250]), 'Sign in to dapp.example ✓']) {
      const { signedMessage, signature } = await wallet.signMessage(message);
      expect(signature).toHaveLength(64);
      const bytes = typeof message === 'string' ? new TextEncoder().encode(message) : message;
      expect(signedMessage).toEqual(bytes);
      expect(await kitVerifies(wallet.address, signature, bytes)).toBe(true);
      expect(opensslVerifies(signers.ed25519.publicKey, signature, bytes)).toBe(true);
      expect(await kitVerifies(wallet.address, signature, Uint8Array.from([9]))).toBe(false);
    }
  });
});

describe('signMessage refuses Solana transactions (a message signature must not sign a transaction)', () => {
  const destination = '11111111111111111111111111111112' as Address;
  // A real kit transfer from this wallet, legacy and v0: what a hostile dapp would pass as a "message".
  const transactions = (['legacy', 0] as const).map((version) => transfer({ feePayer: wallet.address, source: createNoopSigner(wallet.address), destination, amount: SOL, version }));

  it('refuses the compiled message bytes of a legacy and a v0 transfer, and its wire bytes', async () => {
    for (const tx of transactions) {
      const messageBytes = new Uint8Array(tx.messageBytes);
      expect(getCompiledTransactionMessageDecoder().decode(messageBytes).version).toBe(tx === transactions[0] ? 'legacy' : 0);
      for (const bytes of [messageBytes, new Uint8Array(getTransactionEncoder().encode(tx))]) {
        const err = await wallet.signMessage(bytes).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(SvcError);
        expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', status: 0, msg: expect.stringContaining('signTransaction') });
      }
    }
  });

  it('refuses them through messageSigner too', async () => {
    for (const tx of transactions) {
      await expect(wallet.messageSigner.signMessages([createSignableMessage(new Uint8Array(tx.messageBytes))])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });

  it('still signs text, random bytes and an off-chain message (0xff "solana offchain")', async () => {
    const offchain = compileOffchainMessageEnvelope({
      version: 1,
      requiredSignatories: [{ address: wallet.address }],
      content: 'Sign in to dapp.example',
    }).content;
    expect([offchain[0], new TextDecoder().decode(offchain.slice(1, 16))]).toEqual([0xff, 'solana offchain']);
    const messages = [new TextEncoder().encode('Sign in to dapp.example ✓\n'.repeat(40)), new Uint8Array(randomBytes(1232)), new Uint8Array(offchain)];
    for (const bytes of messages) {
      const { signature } = await wallet.signMessage(bytes);
      expect(await kitVerifies(wallet.address, signature, bytes)).toBe(true);
      expect(opensslVerifies(signers.ed25519.publicKey, signature, bytes)).toBe(true);
    }
    const [dictionary] = await wallet.messageSigner.signMessages([createSignableMessage(new Uint8Array(offchain))]);
    expect(await kitVerifies(wallet.address, dictionary![wallet.address]!, new Uint8Array(offchain))).toBe(true);
  });
});

describe('messageSigner (kit MessagePartialSigner)', () => {
  it('signs each message content; kit verifies every signature', async () => {
    expect(isMessagePartialSigner(wallet.messageSigner)).toBe(true);
    const messages = [createSignableMessage('Sign in to dapp.example'), createSignableMessage(Uint8Array.from([0, 1, 255]))];
    const dictionaries = await wallet.messageSigner.signMessages(messages);
    expect(dictionaries).toHaveLength(2);
    for (const [i, dictionary] of dictionaries.entries()) {
      expect(Object.keys(dictionary)).toEqual([wallet.address]);
      expect(await kitVerifies(wallet.address, dictionary[wallet.address]!, messages[i]!.content)).toBe(true);
      expect(await kitVerifies(wallet.address, dictionary[wallet.address]!, messages[1 - i]!.content)).toBe(false);
    }
  });

  it('stops a batch whose abort signal fired', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    await expect(wallet.messageSigner.signMessages([createSignableMessage('x')], { abortSignal: controller.signal })).rejects.toThrow('user cancelled');
  });
});

describe('signTransaction / signAllTransactions', () => {
  const destination = '11111111111111111111111111111112' as Address;

  it('signs the message bytes of a kit transaction; kit verifies it and sees it fully signed', async () => {
    const tx = transfer({ feePayer: wallet.address, source: createNoopSigner(wallet.address), destination, amount: 5n });
    expect(tx.signatures[wallet.address]).toBeNull();
    const signed = await wallet.signTransaction(tx);
    assertIsFullySignedTransaction(signed);
    expect(signed.messageBytes).toEqual(tx.messageBytes);
    expect(await kitVerifies(wallet.address, signed.signatures[wallet.address]!, new Uint8Array(signed.messageBytes))).toBe(true);
  });

  it('signs wire bytes and returns wire bytes', async () => {
    const tx = transfer({ feePayer: wallet.address, source: createNoopSigner(wallet.address), destination, amount: 6n });
    const wire = new Uint8Array(getTransactionEncoder().encode(tx));
    const signedWire = await wallet.signTransaction(wire);
    expect(signedWire).toBeInstanceOf(Uint8Array);
    const decoded = getTransactionDecoder().decode(signedWire);
    expect(opensslVerifies(signers.ed25519.publicKey, decoded.signatures[wallet.address]!, new Uint8Array(decoded.messageBytes))).toBe(true);
  });

  it('leaves other signers alone, and serves as a kit TransactionPartialSigner', async () => {
    const other = await generateKeyPairSigner();
    const tx = transfer({ feePayer: wallet.address, source: other, destination, amount: 7n });
    const signed = await wallet.signTransaction(tx);
    expect(signed.signatures[other.address]).toBeNull();
    const bothSigned = await partiallySignTransaction([other.keyPair], signed);
    assertIsFullySignedTransaction(bothSigned);
    for (const [address, sig] of Object.entries(bothSigned.signatures)) {
      expect(await kitVerifies(address as Address, sig!, new Uint8Array(bothSigned.messageBytes))).toBe(true);
    }
    // The wallet as a kit TransactionPartialSigner, used by kit's own signing helper.
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(wallet.address, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(OFFLINE_BLOCKHASH, m),
      (m) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: wallet.transactionSigner, destination, amount: lamports(8n) }), m),
    );
    const viaKit = await signTransactionMessageWithSigners(message);
    expect(await kitVerifies(wallet.address, viaKit.signatures[wallet.address]!, new Uint8Array(viaKit.messageBytes))).toBe(true);
  });

  it('signs every transaction of a batch', async () => {
    const txs = [1n, 2n, 3n].map((amount) => transfer({ feePayer: wallet.address, source: createNoopSigner(wallet.address), destination, amount }));
    const signed = await wallet.signAllTransactions(txs);
    expect(signed).toHaveLength(3);
    for (const tx of signed) {
      expect(await kitVerifies(wallet.address, tx.signatures[wallet.address]!, new Uint8Array(tx.messageBytes))).toBe(true);
    }
  });

  it('refuses a transaction that does not ask for this wallet, and non-transactions', async () => {
    const other = await generateKeyPairSigner();
    const foreign = transfer({ feePayer: other.address, source: other, destination, amount: 1n });
    await expect(wallet.signTransaction(foreign)).rejects.toMatchObject({ code: 'NOT_A_SIGNER' });
    await expect(wallet.signTransaction(Uint8Array.from([1, 2, 3]))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('never returns a bad signature from a misbehaving signer', async () => {
    const liar = new SvmWallet({ publicKey: signers.ed25519.publicKey, sign: localSigners().ed25519.sign });
    const tx = transfer({ feePayer: wallet.address, source: createNoopSigner(wallet.address), destination, amount: 1n });
    const err = await liar.signTransaction(tx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    expect(err).toMatchObject({ code: 'INVALID_SIGNATURE' });
    await expect(new SvmWallet({ publicKey: signers.ed25519.publicKey, sign: async () => new Uint8Array(63) }).signMessage('x')).rejects.toMatchObject({
      code: 'INVALID_SIGNATURE',
    });
  });
});

describe('send methods against a local SVM (litesvm behind JSON-RPC)', () => {
  let local: LocalSvm;
  let sending: SvmWallet;
  let rpc: ReturnType<typeof createSolanaRpc>;

  beforeAll(async () => {
    local = await startLocalSvm();
    rpc = createSolanaRpc(local.url);
    sending = new SvmWallet(signers.ed25519, { rpcUrl: local.url });
    local.svm.airdrop(wallet.address, lamports(10n * SOL));
  });
  afterAll(async () => {
    await local?.close();
  });

  async function freshTransfer(destination: Address, amount: bigint, source: TransactionSigner = createNoopSigner(wallet.address)) {
    const { value } = await rpc.getLatestBlockhash().send();
    return transfer({ feePayer: wallet.address, source, destination, amount, blockhash: value });
  }
  const balance = async (address: Address) => (await rpc.getBalance(address).send()).value;

  it('signAndSendTransaction: the transfer lands and its id is the fee payer signature', async () => {
    const destination = (await generateKeyPairSigner()).address;
    const tx = await freshTransfer(destination, SOL);
    const id = await sending.signAndSendTransaction(tx);
    expect(getBase58Encoder().encode(id)).toHaveLength(64);
    expect(await balance(destination)).toBe(SOL);
    const { value } = await rpc.getSignatureStatuses([id]).send();
    expect(value[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' });
  });

  it('sendTransaction signs an unsigned wallet slot, and sends a fully co-signed transaction untouched', async () => {
    const destination = (await generateKeyPairSigner()).address;
    const unsigned = await freshTransfer(destination, 2n * SOL);
    await sending.sendTransaction(unsigned);
    expect(await balance(destination)).toBe(2n * SOL);

    const coSigner = await generateKeyPairSigner();
    local.svm.airdrop(coSigner.address, lamports(SOL));
    const coSigned = await freshTransfer(destination, SOL / 2n, coSigner);
    const ours = await sending.signTransaction(coSigned);
    await expect(sending.sendTransaction(ours)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const full = await partiallySignTransaction([coSigner.keyPair], ours);
    const id = await sending.sendTransaction(new Uint8Array(getTransactionEncoder().encode(full)));
    expect(id).toBe(transactionIdOf(full));
    expect(await balance(destination)).toBe(2n * SOL + SOL / 2n);
  });

  it('signAndSendAllTransactions sends every transfer in order', async () => {
    const destination = (await generateKeyPairSigner()).address;
    const txs = [await freshTransfer(destination, 3n * SOL), await freshTransfer(destination, 1_000_000n)];
    const ids = await sending.signAndSendAllTransactions(txs);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    expect(await balance(destination)).toBe(3n * SOL + 1_000_000n);
  });

  it('the local runtime verifies signatures: a tampered signature does not land', async () => {
    const destination = (await generateKeyPairSigner()).address;
    const signed = await sending.signTransaction(await freshTransfer(destination, 1n));
    const bad = Uint8Array.from(signed.signatures[wallet.address]!);
    bad[0]! ^= 1;
    const tampered = { ...signed, signatures: { ...signed.signatures, [wallet.address]: bad as SignatureBytes } };
    await expect(sending.sendTransaction(tampered)).rejects.toMatchObject({ code: 'RPC_ERROR' });
    expect(await balance(destination)).toBe(0n);
  });

  it('reports a transaction the runtime rejects as RPC_ERROR, and sends nothing for a bad signature', async () => {
    const destination = (await generateKeyPairSigner()).address;
    await expect(sending.signAndSendTransaction(await freshTransfer(destination, 1000n * SOL))).rejects.toMatchObject({ code: 'RPC_ERROR' });

    const before = local.calls.filter((m) => m === 'sendTransaction').length;
    const liar = new SvmWallet({ publicKey: signers.ed25519.publicKey, sign: localSigners().ed25519.sign }, { rpcUrl: local.url });
    await expect(liar.signAndSendTransaction(await freshTransfer(destination, 1n))).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' });
    expect(local.calls.filter((m) => m === 'sendTransaction').length).toBe(before);
    expect(await balance(destination)).toBe(0n);
  });
});
