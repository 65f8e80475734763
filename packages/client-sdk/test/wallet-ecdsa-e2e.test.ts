import { randomUUID } from 'node:crypto';
import { decodeSignature, makeSignDoc as makeAminoSignDoc, serializeSignDoc, type StdSignDoc } from '@cosmjs/amino';
import { Secp256k1, Secp256k1Signature, sha256 } from '@cosmjs/crypto';
import { fromBase64, toBase64, toUtf8 } from '@cosmjs/encoding';
import { encodePubkey, makeAuthInfoBytes, makeSignBytes, makeSignDoc as makeDirectSignDoc, Registry } from '@cosmjs/proto-signing';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx.js';
import { TxBody } from 'cosmjs-types/cosmos/tx/v1beta1/tx.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { createPublicClient, createWalletClient, http, keccak256, parseEther, parseGwei, parseTransaction, recoverTransactionAddress, toBytes, verifyMessage, verifyTypedData } from 'viem';
import { MemoryShareStorage, SvcError, SvcWallet } from '../src/index.js';
import { cosmosWallet } from '../src/cosmos.js';
import { ethereumWallet } from '../src/ethereum.js';
import { startLocalEvm, type LocalEvmNode } from './helpers/ganache-node.js';
import { startStack, type Stack } from './support/stack.js';
import { startTamperingProxy, type TamperingProxy } from './support/tampering-proxy.js';

/*
 * Two-party ECDSA through the real stack (gateway, tss-api on PostgreSQL, three key share
 * nodes): the SDK's background presignature pool, every secp256k1 chain method verified by its
 * ecosystem's own verifier, the pool's recovery after a reload, and a lying server caught.
 * The server's pool cap is set to the SDK's default target (4) so the cap is actually met.
 */

let stack: Stack;
let evm: LocalEvmNode;
let proxy: TamperingProxy;

beforeAll(async () => {
  [stack, evm] = await Promise.all([startStack({ tssEnv: { ECDSA_PRESIGNATURE_POOL_MAX: '4' } }), startLocalEvm()]);
  proxy = await startTamperingProxy(stack.gatewayUrl);
});
afterAll(async () => {
  await proxy?.close();
  await evm?.close();
  await stack?.stop();
});

const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
const HALF_N = secp256k1.Point.CURVE().n >> 1n;

const newWallet = (overrides: Partial<ConstructorParameters<typeof SvcWallet>[0]> = {}) =>
  new SvcWallet({ gatewayUrl: stack.gatewayUrl, apiKey: stack.apiKey, storage: new MemoryShareStorage(), keyshareNodes: stack.nodeRefs, keyshareThreshold: 2, ...overrides });

/** A Google user (local OIDC issuer) with both wallets. */
async function userWithWallet(overrides: Parameters<typeof newWallet>[0] = {}) {
  const sub = `ecdsa-${randomUUID()}`;
  const issue = () => stack.google.issue({ sub, email: `${sub}@example.com` });
  const wallet = newWallet(overrides);
  expect((await wallet.signIn(await issue())).status).toBe('needs_keygen');
  await wallet.keygen();
  return { wallet, issue };
}

const unusedOnServer = async (wallet: SvcWallet) =>
  stack.db.presignaturePoolItem.count({ where: { walletId: wallet.user!.wallets.find((w) => w.curve === 'secp256k1')!.wallet_id, status: 'UNUSED' } });

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function cosmjsVerifies(signatureB64: string, signBytes: Uint8Array, pubkey: Uint8Array): Promise<boolean> {
  return Secp256k1.verifySignature(Secp256k1Signature.fromFixedLength(fromBase64(signatureB64)), sha256(signBytes), pubkey);
}

describe('ECDSA through the service: every Ethereum and Cosmos method', () => {
  let wallet: SvcWallet;
  beforeAll(async () => {
    ({ wallet } = await userWithWallet());
  });

  it('keygen fills the presignature pool in the background, up to the target', async () => {
    await until('4 unused presignatures on the server', async () => (await unusedOnServer(wallet)) === 4);
  });

  it('personal_sign, eth_signTypedData_v4 and secp256k1_sign verified by viem and noble', async () => {
    const ethereum = await ethereumWallet(wallet);
    const signature = await ethereum.personal_sign('threshold ECDSA ✓');
    expect(await verifyMessage({ address: ethereum.address, message: 'threshold ECDSA ✓', signature })).toBe(true);

    const mail = {
      domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
      types: { Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }], Mail: [{ name: 'from', type: 'Person' }, { name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' }, contents: 'Hello, Bob!' },
    } as const;
    const typed = await ethereum.eth_signTypedData_v4(mail);
    expect(await verifyTypedData({ address: ethereum.address, ...mail, signature: typed })).toBe(true);

    const hash = keccak256(toBytes('raw digest'));
    const raw = await ethereum.secp256k1_sign(toBytes(hash));
    const key = fromHexKey(wallet);
    expect(secp256k1.verify(raw.signature, toBytes(hash), key, { prehash: false })).toBe(true);
  });

  it('eth_signTransaction (EIP-1559 and legacy): the sender recovers to the wallet, s is low', async () => {
    const ethereum = await ethereumWallet(wallet);
    const eip1559 = await ethereum.eth_signTransaction({
      type: 'eip1559', chainId: 1, nonce: 0, to: recipient, value: parseEther('0.1'), gas: 21_000n, maxFeePerGas: parseGwei('30'), maxPriorityFeePerGas: parseGwei('1'),
    });
    expect(await recoverTransactionAddress({ serializedTransaction: eip1559 as `0x02${string}` })).toBe(ethereum.address);
    const legacy = await ethereum.eth_signTransaction({ type: 'legacy', chainId: 1, nonce: 1, to: recipient, value: 1n, gas: 21_000n, gasPrice: parseGwei('5') });
    expect(await recoverTransactionAddress({ serializedTransaction: legacy as Parameters<typeof recoverTransactionAddress>[0]['serializedTransaction'] })).toBe(ethereum.address);
    for (const tx of [eip1559, legacy]) expect(BigInt(parseTransaction(tx).s!) <= HALF_N).toBe(true);
  });

  it('eth_sendTransaction: a local EVM node mines both transaction types from the wallet', async () => {
    const ethereum = await ethereumWallet(wallet, { rpcUrl: evm.url });
    const client = createPublicClient({ transport: http(evm.url) });
    const dev = createWalletClient({ account: evm.devAccount, transport: http(evm.url) });
    await client.waitForTransactionReceipt({ hash: await dev.sendTransaction({ to: ethereum.address, value: parseEther('1'), chain: null }) });
    const a = await ethereum.eth_sendTransaction({ to: recipient, value: parseEther('0.2') });
    const b = await ethereum.eth_sendTransaction({ to: recipient, value: parseEther('0.3'), gasPrice: parseGwei('5') });
    expect(await client.waitForTransactionReceipt({ hash: a })).toMatchObject({ status: 'success', from: ethereum.address.toLowerCase(), type: 'eip1559' });
    expect(await client.waitForTransactionReceipt({ hash: b })).toMatchObject({ status: 'success', from: ethereum.address.toLowerCase(), type: 'legacy' });
  });

  it('cosmos_signAmino, cosmos_signDirect, cosmos_signArbitrary (ADR-036) and secp256k1_sign verified by cosmjs', async () => {
    const cosmos = await cosmosWallet(wallet, { prefix: 'osmo' });
    const amino: StdSignDoc = makeAminoSignDoc(
      [{ type: 'cosmos-sdk/MsgSend', value: { from_address: cosmos.address, to_address: 'osmo1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5z5tpwp', amount: [{ denom: 'uosmo', amount: '1234' }] } }],
      { amount: [{ denom: 'uosmo', amount: '500' }], gas: '200000' },
      'osmosis-1',
      'threshold',
      42,
      7,
    );
    const signedAmino = await cosmos.cosmos_signAmino(cosmos.address, amino);
    expect(await cosmjsVerifies(signedAmino.signature.signature, serializeSignDoc(amino), decodeSignature(signedAmino.signature).pubkey)).toBe(true);

    const registry = new Registry([['/cosmos.bank.v1beta1.MsgSend', MsgSend]]);
    const bodyBytes = TxBody.encode(
      TxBody.fromPartial({
        messages: [registry.encodeAsAny({ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: MsgSend.fromPartial({ fromAddress: cosmos.address, toAddress: 'osmo1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5z5tpwp', amount: [{ denom: 'uosmo', amount: '1' }] }) })],
      }),
    ).finish();
    const authInfoBytes = makeAuthInfoBytes([{ pubkey: encodePubkey(cosmos.aminoPubkey), sequence: 3 }], [{ denom: 'uosmo', amount: '2000' }], 200_000, undefined, undefined);
    const direct = makeDirectSignDoc(bodyBytes, authInfoBytes, 'osmosis-1', 99);
    const signedDirect = await cosmos.cosmos_signDirect(cosmos.address, direct);
    expect(await cosmjsVerifies(signedDirect.signature.signature, makeSignBytes(direct), decodeSignature(signedDirect.signature).pubkey)).toBe(true);

    const text = 'Login to dapp.example';
    const arbitrary = await cosmos.cosmos_signArbitrary(cosmos.address, text);
    const adr036: StdSignDoc = {
      chain_id: '', account_number: '0', sequence: '0', fee: { gas: '0', amount: [] }, memo: '',
      msgs: [{ type: 'sign/MsgSignData', value: { signer: cosmos.address, data: toBase64(toUtf8(text)) } }],
    };
    expect(await cosmjsVerifies(arbitrary.signature, serializeSignDoc(adr036), fromHexKey(wallet))).toBe(true);

    const digest = sha256(toUtf8('cosmos digest'));
    const raw = await cosmos.secp256k1_sign(digest);
    expect(await Secp256k1.verifySignature(Secp256k1Signature.fromFixedLength(raw.signature), digest, fromHexKey(wallet))).toBe(true);
  });

  it('concurrent signatures each spend their own presignature; the server consumed one per signature', async () => {
    const ethereum = await ethereumWallet(wallet);
    const before = await stack.db.presignaturePoolItem.count({ where: { status: 'CONSUMED' } });
    const texts = Array.from({ length: 6 }, (_, i) => `concurrent ${i}`);
    const sigs = await Promise.all(texts.map((t) => ethereum.personal_sign(t)));
    for (const [i, signature] of sigs.entries()) {
      expect(await verifyMessage({ address: ethereum.address, message: texts[i]!, signature })).toBe(true);
      expect(BigInt(`0x${signature.slice(66, 130)}`) <= HALF_N).toBe(true);
    }
    expect(new Set(sigs.map((s) => s.slice(0, 66))).size).toBe(6); // six distinct r: six presignatures
    expect((await stack.db.presignaturePoolItem.count({ where: { status: 'CONSUMED' } })) - before).toBe(6);
  });
});

function fromHexKey(wallet: SvcWallet): Uint8Array {
  return Uint8Array.from(Buffer.from(wallet.user!.wallets.find((w) => w.curve === 'secp256k1')!.public_key, 'hex'));
}

describe('the pool across reloads and devices', () => {
  it('a reloaded client finds the server pool full of orphans: it discards them and signs; the old tab recovers too', async () => {
    const { wallet: first, issue } = await userWithWallet();
    await until('the first client to fill the server pool', async () => (await unusedOnServer(first)) === 4);
    // A "reload": same share storage, a new SvcWallet with an empty pool.
    const reloaded = newWallet({ storage: first.storage });
    expect((await reloaded.signIn(await issue())).status).toBe('ready');
    const ethereum = await ethereumWallet(reloaded);
    const sig = await ethereum.personal_sign('after reload');
    expect(await verifyMessage({ address: ethereum.address, message: 'after reload', signature: sig })).toBe(true);
    expect(await stack.db.presignaturePoolItem.count({ where: { walletId: reloaded.user!.wallets.find((w) => w.curve === 'secp256k1')!.wallet_id, status: 'DISCARDED' } })).toBe(4);

    // The first tab's presignatures were discarded: its next signature still succeeds.
    await until('the reloaded client to refill', async () => (await unusedOnServer(reloaded)) === 4);
    const old = await ethereumWallet(first);
    const again = await old.personal_sign('old tab');
    expect(await verifyMessage({ address: old.address, message: 'old tab', signature: again })).toBe(true);
  });

  it('presignaturePoolSize 0: nothing in the background, one presignature made on demand', async () => {
    const { wallet } = await userWithWallet({ presignaturePoolSize: 0 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await unusedOnServer(wallet)).toBe(0);
    const ethereum = await ethereumWallet(wallet);
    expect(await verifyMessage({ address: ethereum.address, message: 'on demand', signature: await ethereum.personal_sign('on demand') })).toBe(true);
    expect(await unusedOnServer(wallet)).toBe(0);
  });
});

describe('a lying server is caught, never turned into a signature', () => {
  let wallet: SvcWallet;
  let issue: () => Promise<string>;
  beforeAll(async () => {
    ({ wallet, issue } = await userWithWallet({ presignaturePoolSize: 0 }));
  });
  afterEach(() => proxy.setTamper(null));

  const throughProxy = async () => {
    const w = newWallet({ gatewayUrl: proxy.url, storage: wallet.storage, presignaturePoolSize: 0 });
    expect((await w.signIn(await issue())).status).toBe('ready');
    return ethereumWallet(w);
  };

  it('a tampered s in sign_output: INVALID_SIGNATURE', async () => {
    const ethereum = await throughProxy();
    proxy.setTamper((path, body) => {
      if (path.endsWith('/tss/v1/sign')) {
        const out = (body.data as { sign_output: { s: number[] } }).sign_output;
        out.s[31] = (out.s[31] ?? 0) ^ 1;
      }
    });
    const err = (await ethereum.personal_sign('tampered s').catch((e: unknown) => e)) as SvcError;
    expect(err).toBeInstanceOf(SvcError);
    expect(err.code).toBe('INVALID_SIGNATURE');
  });

  it('a sign_output for another presignature (R differs): PROTOCOL_ERROR', async () => {
    const ethereum = await throughProxy();
    proxy.setTamper((path, body) => {
      if (path.endsWith('/tss/v1/sign')) (body.data as { msgs_0: { big_r: string } }).msgs_0.big_r = `02${'11'.repeat(32)}`;
    });
    await expect(ethereum.personal_sign('other R')).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
  });

  it('a tampered triples answer: PROTOCOL_ERROR naming the server, and the server session is aborted', async () => {
    const ethereum = await throughProxy();
    const sessions: string[] = [];
    proxy.setTamper((path, body) => {
      if (!path.endsWith('/tss/v1/triples')) return;
      const data = body.data as { session_id: string; msg: Record<string, unknown> };
      sessions.push(data.session_id);
      if (sessions.length === 2) {
        const field = Object.keys(data.msg).find((k) => typeof data.msg[k] === 'string' && /^[0-9a-f]{64,}$/.test(data.msg[k] as string));
        if (!field) throw new Error('no hex field to tamper');
        const v = data.msg[field] as string;
        data.msg[field] = `${v.slice(0, 10)}${v[10] === '0' ? '1' : '0'}${v.slice(11)}`;
      }
    });
    const err = (await ethereum.personal_sign('tampered triples').catch((e: unknown) => e)) as SvcError;
    expect(err.code).toBe('PROTOCOL_ERROR');
    expect(err.msg).toContain('server');
    expect(await stack.db.tssSession.findUnique({ where: { id: sessions[0]! } })).toMatchObject({ status: 'ABORTED' });
  });
});
