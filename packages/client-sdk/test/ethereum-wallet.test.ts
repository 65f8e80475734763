import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  createPublicClient,
  createWalletClient,
  http,
  keccak256,
  parseEther,
  parseGwei,
  parseTransaction,
  recoverAddress,
  recoverTransactionAddress,
  serializeSignature,
  toBytes,
  verifyMessage,
  verifyTypedData,
  type Hex,
} from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { mainnet } from 'viem/chains';
import { EthereumWallet } from '../src/ethereum.js';
import { SvcError } from '../src/index.js';
import { startLocalEvm, type LocalEvmNode } from './helpers/ganache-node.js';
import { localSigners, toBytes32 } from './helpers/local-signers.js';

const signers = localSigners();
const wallet = new EthereumWallet(signers.secp256k1);
const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
const HALF_N = secp256k1.Point.CURVE().n >> 1n;

const mail = {
  domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as const;

describe('EthereumWallet address', () => {
  it('is the address of the signer key, derived from the compressed public key', () => {
    const secretHex = `0x${Buffer.from(signers.secp256k1SecretKey).toString('hex')}` as Hex;
    expect(wallet.address).toBe(privateKeyToAddress(secretHex));
  });
});

describe('personal_sign (EIP-191)', () => {
  it('signs UTF-8 text that viem verifyMessage accepts', async () => {
    const message = 'Sign in to example.com\nnonce: 8f2a ✓';
    const signature = await wallet.personal_sign(message);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    await expect(verifyMessage({ address: wallet.address, message, signature })).resolves.toBe(true);
    await expect(verifyMessage({ address: wallet.address, message: 'other', signature })).resolves.toBe(false);
  });

  it('signs raw bytes given as hex or Uint8Array', async () => {
    const raw = Uint8Array.from([0, 1, 2, 0xff, 0x80]);
    const fromBytes = await wallet.personal_sign(raw);
    const fromHex = await wallet.personal_sign({ raw: '0x000102ff80' });
    for (const signature of [fromBytes, fromHex]) {
      await expect(verifyMessage({ address: wallet.address, message: { raw }, signature })).resolves.toBe(true);
    }
  });

  it('returns low-s signatures with v 27 or 28 even when the signer answers high-s', async () => {
    for (let i = 0; i < 6; i++) {
      const signature = await wallet.personal_sign(`message ${i}`);
      const s = BigInt(`0x${signature.slice(66, 130)}`);
      const v = parseInt(signature.slice(130), 16);
      expect(s <= HALF_N).toBe(true);
      expect([27, 28]).toContain(v);
      await expect(verifyMessage({ address: wallet.address, message: `message ${i}`, signature })).resolves.toBe(true);
    }
  });
});

describe('eth_signTypedData_v4 (EIP-712)', () => {
  it('signs the typed data object so that verifyTypedData accepts it', async () => {
    const signature = await wallet.eth_signTypedData_v4(mail);
    await expect(verifyTypedData({ address: wallet.address, ...mail, signature })).resolves.toBe(true);
    await expect(
      verifyTypedData({ address: wallet.address, ...mail, message: { ...mail.message, contents: 'Hi' }, signature }),
    ).resolves.toBe(false);
  });

  it('accepts the JSON a dApp sends, EIP712Domain type included', async () => {
    const json = JSON.stringify({
      ...mail,
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        ...mail.types,
      },
    });
    const signature = await wallet.eth_signTypedData_v4(json);
    await expect(verifyTypedData({ address: wallet.address, ...mail, signature })).resolves.toBe(true);
  });

  it('rejects malformed typed data with INVALID_ARGUMENT', async () => {
    await expect(wallet.eth_signTypedData_v4('{not json')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(
      wallet.eth_signTypedData_v4({ ...mail, message: { ...mail.message, to: { name: 'Bob', wallet: '0x1234' } } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('eth_signTransaction', () => {
  it('serializes a signed EIP-1559 transaction whose sender recovers to the wallet', async () => {
    const signed = await wallet.eth_signTransaction({
      type: 'eip1559',
      chainId: 1,
      nonce: 7,
      to: recipient,
      value: parseEther('0.5'),
      gas: 21_000n,
      maxFeePerGas: parseGwei('30'),
      maxPriorityFeePerGas: parseGwei('2'),
      data: '0x',
    });
    expect(signed.startsWith('0x02')).toBe(true);
    await expect(recoverTransactionAddress({ serializedTransaction: signed as `0x02${string}` })).resolves.toBe(wallet.address);
    const parsed = parseTransaction(signed);
    expect(parsed).toMatchObject({ type: 'eip1559', chainId: 1, nonce: 7, to: recipient.toLowerCase(), value: parseEther('0.5') });
    expect(BigInt(parsed.s!) <= HALF_N).toBe(true);
  });

  it('serializes a signed legacy transaction with EIP-155 v', async () => {
    const signed = await wallet.eth_signTransaction({
      chainId: 5,
      nonce: 0,
      to: recipient,
      value: 1n,
      gas: 21_000n,
      gasPrice: parseGwei('10'),
    });
    await expect(recoverTransactionAddress({ serializedTransaction: signed as `0x${string}` as never })).resolves.toBe(wallet.address);
    const parsed = parseTransaction(signed);
    expect(parsed.type).toBe('legacy');
    expect([5n * 2n + 35n, 5n * 2n + 36n]).toContain(parsed.v);
  });

  it('refuses a transaction without its chainId (a pre-EIP-155 signature replays on every chain), or for another chain than its own', async () => {
    const tx = { nonce: 0, to: recipient, value: 1n, gas: 21_000n, gasPrice: parseGwei('10') } as const;
    await expect(wallet.eth_signTransaction(tx)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('chainId') });
    const onChain5 = new EthereumWallet(signers.secp256k1, { chain: { ...mainnet, id: 5 } });
    await expect(onChain5.eth_signTransaction({ ...tx, chainId: 1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', msg: 'the transaction is for chain 1, this wallet for chain 5' });
    await expect(recoverTransactionAddress({ serializedTransaction: (await onChain5.eth_signTransaction({ ...tx, chainId: 5 })) as never })).resolves.toBe(wallet.address);
  });

  it('rejects a transaction viem cannot serialize with INVALID_ARGUMENT', async () => {
    await expect(
      wallet.eth_signTransaction({ chainId: 1, to: '0xnot-an-address' as Hex, maxFeePerGas: 1n, maxPriorityFeePerGas: 2n }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('secp256k1_sign (Ethereum)', () => {
  it('signs a raw 32-byte hash without prefix', async () => {
    const hash = keccak256(toBytes('raw digest'));
    const sig = await wallet.secp256k1_sign(hash);
    expect(sig.signature).toHaveLength(64);
    const signature = serializeSignature({ r: toHexString(sig.r), s: toHexString(sig.s), yParity: sig.recovery });
    await expect(recoverAddress({ hash, signature })).resolves.toBe(wallet.address);
    expect(secp256k1.verify(sig.signature, toBytes(hash), signers.secp256k1.publicKey, { prehash: false })).toBe(true);
  });

  it('rejects a digest that is not 32 bytes', async () => {
    await expect(wallet.secp256k1_sign(new Uint8Array(31))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('a signer that misbehaves', () => {
  it('never yields a signature: wrong key, garbage, or a signature over another hash', async () => {
    const other = localSigners();
    const liars = [
      { publicKey: signers.secp256k1.publicKey, signHash: other.secp256k1.signHash },
      { publicKey: signers.secp256k1.publicKey, signHash: async () => ({ r: new Uint8Array(32).fill(7), s: new Uint8Array(32).fill(9), recovery: 0 as const }) },
      { publicKey: signers.secp256k1.publicKey, signHash: async () => ({ r: new Uint8Array(32), s: toBytes32(1n), recovery: 0 as const }) },
      { publicKey: signers.secp256k1.publicKey, signHash: () => signers.secp256k1.signHash(new Uint8Array(32).fill(1)) },
    ];
    for (const liar of liars) {
      const bad = new EthereumWallet(liar);
      const err = await bad.personal_sign('hello').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SvcError);
      expect(err).toMatchObject({ code: 'INVALID_SIGNATURE', status: 0 });
    }
  });
});

describe('eth_sendTransaction against a local EVM node', () => {
  let node: LocalEvmNode;
  beforeAll(async () => {
    node = await startLocalEvm();
  });
  afterAll(async () => {
    await node?.close();
  });

  it('fills, signs and sends EIP-1559 and legacy transfers that the node mines from the wallet', async () => {
    const publicClient = createPublicClient({ transport: http(node.url) });
    const dev = createWalletClient({ account: node.devAccount, transport: http(node.url) });
    const fund = await dev.sendTransaction({ to: wallet.address, value: parseEther('2'), chain: null });
    await publicClient.waitForTransactionReceipt({ hash: fund });

    const sending = new EthereumWallet(signers.secp256k1, { rpcUrl: node.url });
    const before = await publicClient.getBalance({ address: recipient });

    const hash1559 = await sending.eth_sendTransaction({ to: recipient, value: parseEther('0.25') });
    const receipt1559 = await publicClient.waitForTransactionReceipt({ hash: hash1559 });
    expect(receipt1559).toMatchObject({ status: 'success', from: wallet.address.toLowerCase(), type: 'eip1559' });

    const hashLegacy = await sending.eth_sendTransaction({ to: recipient, value: parseEther('0.5'), gasPrice: parseGwei('5') });
    const receiptLegacy = await publicClient.waitForTransactionReceipt({ hash: hashLegacy });
    expect(receiptLegacy).toMatchObject({ status: 'success', from: wallet.address.toLowerCase(), type: 'legacy' });

    // EIP-155: the legacy v carries the node's chain id, which eth_sendTransaction asked the node for.
    const mined = await publicClient.getTransaction({ hash: hashLegacy });
    expect([BigInt(node.chainId * 2 + 35), BigInt(node.chainId * 2 + 36)]).toContain(mined.v);
    expect(await publicClient.getBalance({ address: recipient })).toBe(before + parseEther('0.75'));
    expect(await publicClient.getTransactionCount({ address: wallet.address })).toBe(2);
  });

  it('reports a node rejection (insufficient funds) as RPC_ERROR', async () => {
    const poor = new EthereumWallet(localSigners().secp256k1, { rpcUrl: node.url });
    await expect(poor.eth_sendTransaction({ to: recipient, value: parseEther('1') })).rejects.toMatchObject({ code: 'RPC_ERROR' });
  });

  it('needs an rpcUrl', async () => {
    await expect(wallet.eth_sendTransaction({ to: recipient, value: 1n })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

function toHexString(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString('hex')}`;
}
