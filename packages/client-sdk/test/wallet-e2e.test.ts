import { randomUUID } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  createKeyPairSignerFromBytes,
  createNoopSigner,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Encoder,
  getTransactionEncoder,
  lamports,
  type Address,
} from '@solana/kit';
import { privateKeyToAccount } from 'viem/accounts';
import { ServiceJwt } from '@svc/auth';
import { toHex } from '@svc/crypto';
import { AuthedClient, HttpClient, MemoryShareStorage, SvcError, SvcWallet, type FetchLike, type SignInResult } from '../src/index.js';
import { chainWallets } from '../src/chain-wallets.js';
import { svmWallet } from '../src/solana.js';
import { startLocalSvm, type LocalSvm } from './helpers/litesvm-rpc.js';
import { kitVerifies, opensslVerifies, SOL, transfer } from './helpers/svm-verify.js';
import { STACK_JWT_SECRET, startStack, type Stack } from './support/stack.js';
import { startTamperingProxy, type TamperingProxy } from './support/tampering-proxy.js';

let stack: Stack;
let svm: LocalSvm;
let proxy: TamperingProxy;

beforeAll(async () => {
  [stack, svm] = await Promise.all([startStack(), startLocalSvm()]);
  proxy = await startTamperingProxy(stack.gatewayUrl);
});
afterAll(async () => {
  await proxy?.close();
  await svm?.close();
  await stack?.stop();
});

const newWallet = (overrides: Partial<ConstructorParameters<typeof SvcWallet>[0]> = {}) =>
  new SvcWallet({ gatewayUrl: stack.gatewayUrl, apiKey: stack.apiKey, storage: new MemoryShareStorage(), ...overrides });

/** Email one-time-code login through the SDK, the code read from the in-process SMTP server. */
async function emailIdToken(wallet: SvcWallet, email: string, mailNumber: number): Promise<string> {
  await wallet.requestEmailCode(email);
  return wallet.verifyEmailCode(email, await stack.emailCode(email, mailNumber));
}

/** A new email user with both wallets; returns the SDK client and the email. */
async function emailUserWithWallet(): Promise<{ wallet: SvcWallet; email: string; mails: number }> {
  const email = `user-${randomUUID().slice(0, 8)}@example.com`;
  const wallet = newWallet();
  expect((await wallet.signIn(await emailIdToken(wallet, email, 1))).status).toBe('needs_keygen');
  await wallet.keygen();
  return { wallet, email, mails: 1 };
}

describe('sign-in and keygen against the real stack (gateway, tss-api, three key share nodes)', () => {
  it('email code -> needs_keygen -> keygen of both curves with backups on every node -> signed in', async () => {
    const { wallet, email } = await emailUserWithWallet();
    const user = wallet.user!;
    expect(user.email).toBe(email);
    expect(user.wallets.map((w) => w.curve).sort()).toEqual(['ed25519', 'secp256k1']);
    const check = await wallet.checkNodes();
    expect(check.keyshare_node_meta.nodes.map((n) => `${n.name}:${n.wallet_status}`)).toEqual(['node-1:ACTIVE', 'node-2:ACTIVE', 'node-3:ACTIVE']);
    expect(check.needs_reshare).toBe(false);
    // Every node holds a backup share of both wallets.
    for (const node of stack.nodeRefs) {
      for (const w of user.wallets) {
        const res = await fetch(`${node.endpoint}/keyshare/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ curve_type: w.curve, public_key: w.public_key }) });
        expect(((await res.json()) as { data: { exists: boolean } }).data.exists).toBe(true);
      }
    }
    // The client share is only in the app's storage, never the whole seed.
    const stored = await wallet.storage.get(`svc-wallet:${user.wallets.find((w) => w.curve === 'ed25519')!.wallet_id}:ed25519`);
    expect(JSON.parse(stored!)).toMatchObject({ v: 1, curve: 'ed25519', key_package: { identifier: 1 } });
  });

  it('a provider ID token (local OIDC issuer as Google), committed to the nodes before the gateway sees it', async () => {
    const wallet = newWallet();
    const sub = `g-${randomUUID()}`;
    const email = `${sub}@example.com`;
    const token = await stack.google.issue({ sub, email });
    expect((await wallet.signIn(token)).status).toBe('needs_keygen');
    // The token is bound to this client's session key at every node: replayed without it, refused.
    const replay = await fetch(`${stack.nodeRefs[0]!.endpoint}/keyshare/v1/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ curve_type: 'ed25519', public_key: 'ab'.repeat(32), share: '0101' }),
    });
    expect(replay.status).toBe(401);
    await wallet.keygen();
    const chain = await svmWallet(wallet);
    const { signature } = await chain.signMessage('hello from google');
    expect(await kitVerifies(chain.address, signature, new TextEncoder().encode('hello from google'))).toBe(true);

    // Signing in again on the same device: ready.
    const again = newWallet({ storage: wallet.storage });
    expect((await again.signIn(await stack.google.issue({ sub, email }))).status).toBe('ready');
  });
});

describe('Ed25519 through the service: every SVM method', () => {
  let wallet: SvcWallet;
  let rpc: ReturnType<typeof createSolanaRpc>;
  beforeAll(async () => {
    ({ wallet } = await emailUserWithWallet());
    rpc = createSolanaRpc(svm.url);
  });

  it('signMessage, signTransaction, signAllTransactions verified by kit and OpenSSL', async () => {
    const chain = await svmWallet(wallet);
    const publicKey = Uint8Array.from(Buffer.from(wallet.user!.wallets.find((w) => w.curve === 'ed25519')!.public_key, 'hex'));
    const message = new TextEncoder().encode('threshold-signed ✓');
    const { signature } = await chain.signMessage(message);
    expect(await kitVerifies(chain.address, signature, message)).toBe(true);
    expect(opensslVerifies(publicKey, signature, message)).toBe(true);

    const destination = (await generateKeyPairSigner()).address;
    const tx = transfer({ feePayer: chain.address, source: createNoopSigner(chain.address), destination, amount: 5n });
    const signed = await chain.signTransaction(tx);
    expect(await kitVerifies(chain.address, signed.signatures[chain.address]!, new Uint8Array(signed.messageBytes))).toBe(true);
    const all = await chain.signAllTransactions([tx, transfer({ feePayer: chain.address, source: createNoopSigner(chain.address), destination, amount: 6n })]);
    for (const t of all) expect(opensslVerifies(publicKey, t.signatures[chain.address]!, new Uint8Array(t.messageBytes))).toBe(true);
  });

  it('one call per signature, fresh client nonces every time (those prepared ahead included): 5 in a row, then 8 at once', async () => {
    const sent: string[] = [];
    /** Whether each commitment went, and came back, with a subgroup witness (docs/crypto/ed25519.md). */
    const witnesses: [sent: boolean, answered: boolean][] = [];
    const capturing: FetchLike = async (input, init) => {
      if (!input.endsWith('/tss/v1/sign')) return fetch(input, init);
      const commitment1 = (JSON.parse(String(init?.body)) as { commitment1: { witness?: unknown } }).commitment1;
      sent.push(JSON.stringify(commitment1));
      const res = await fetch(input, init);
      const answer = (await res.clone().json()) as { data?: { commitment0?: { witness?: unknown } } };
      witnesses.push([commitment1.witness !== undefined, answer.data?.commitment0?.witness !== undefined]);
      return res;
    };
    const w = newWallet({ storage: wallet.storage, fetch: capturing });
    await w.resume(wallet.api.jwt!);
    const { ed25519 } = await w.signers();
    const messages = Array.from({ length: 13 }, (_, i) => new TextEncoder().encode(`message ${i}`));
    const signatures: Uint8Array[] = [];
    for (const m of messages.slice(0, 5)) signatures.push(await ed25519.sign(m));
    signatures.push(...(await Promise.all(messages.slice(5).map((m) => ed25519.sign(m)))));
    signatures.forEach((signature, i) => expect(opensslVerifies(ed25519.publicKey, signature, messages[i]!)).toBe(true));
    expect(sent).toHaveLength(13);
    expect(new Set(sent).size).toBe(13);
    expect(witnesses).toEqual(Array(13).fill([true, true]));
  });

  it('sendTransaction, signAndSendTransaction, signAndSendAllTransactions land on a local SVM', async () => {
    const chain = await svmWallet(wallet, { rpcUrl: svm.url });
    svm.svm.airdrop(chain.address, lamports(10n * SOL));
    const destination = (await generateKeyPairSigner()).address;
    const fresh = async (amount: bigint) => {
      const { value } = await rpc.getLatestBlockhash().send();
      return transfer({ feePayer: chain.address, source: createNoopSigner(chain.address), destination, amount, blockhash: value });
    };
    const balance = async (a: Address) => (await rpc.getBalance(a).send()).value;

    const id = await chain.signAndSendTransaction(await fresh(SOL));
    expect(getBase58Encoder().encode(id)).toHaveLength(64);
    await chain.sendTransaction(new Uint8Array(getTransactionEncoder().encode(await fresh(2n * SOL))));
    const ids = await chain.signAndSendAllTransactions([await fresh(3n), await fresh(4n)]);
    expect(ids).toHaveLength(2);
    expect(await balance(destination)).toBe(3n * SOL + 7n);
    const { value } = await rpc.getSignatureStatuses([id, ...ids]).send();
    for (const s of value) expect(s).toMatchObject({ err: null });
  });
});

describe('silent JWT refresh', () => {
  it('refreshes before expiry, and retries once after a 401 for a token the client thought valid', async () => {
    const { wallet } = await emailUserWithWallet();
    const user = wallet.user!;
    const http = new HttpClient({ gatewayUrl: stack.gatewayUrl, apiKey: stack.apiKey });
    const claims = { email: user.email, auth_type: user.auth_type, wallet_ids: user.wallets.map((w) => w.wallet_id) };
    const shortLived = new ServiceJwt({ secret: STACK_JWT_SECRET, expiresIn: 1 }).sign('user', user.user_id, claims).token;
    await new Promise((r) => setTimeout(r, 1100));

    // A client clock behind the server's: it sends the expired token, gets 401, refreshes, retries.
    const tokens: SignInResult[] = [];
    const skewed = new AuthedClient(http, { refreshMarginSeconds: 0, now: () => Date.now() - 30_000, onToken: (r) => tokens.push(r) });
    skewed.setJwt(shortLived);
    const r1 = await skewed.post<{ session_id: string }>('/tss/v2/sign_ed25519/round1', { msg: 'abcd' });
    expect(r1.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(tokens).toHaveLength(1);
    expect(skewed.jwt).not.toBe(shortLived);

    // A correct clock refreshes before sending, within the margin.
    const early: SignInResult[] = [];
    const ahead = new AuthedClient(http, { refreshMarginSeconds: 3600 * 2, onToken: (r) => early.push(r) });
    ahead.setJwt(tokens[0]!.token);
    await ahead.post('/tss/v1/session/abort', { session_id: r1.session_id });
    expect(early).toHaveLength(1);

    // A refresh revokes the token it replaces: calls in flight with the old token get 401 and
    // retry with the new one (without refreshing again, which would revoke that one too).
    const busy = new AuthedClient(http);
    busy.setJwt(early[0]!.token);
    const [, ...opened] = await Promise.all([busy.refresh(), ...Array.from({ length: 5 }, () => busy.post<{ session_id: string }>('/tss/v2/sign_ed25519/round1', { msg: 'abcd' }))]);
    for (const o of opened) expect(o.session_id).toMatch(/^[0-9a-f-]{36}$/);

    // A token the server refuses even to refresh (here: not its signature; past the
    // signin_silently window alike): the session is over, SESSION_EXPIRED and the hook, once.
    const expired: SvcError[] = [];
    const stale = new AuthedClient(http, { refreshMarginSeconds: 0, now: () => 0, onSessionExpired: (e) => expired.push(e) });
    stale.setJwt(new ServiceJwt({ secret: 'another-secret-that-is-long-enough-0123456789', expiresIn: 3600 }).sign('user', user.user_id, claims).token);
    const failure = await stale.post('/tss/v2/sign_ed25519/round1', { msg: 'abcd' }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'SESSION_EXPIRED', status: 0, cause: { code: 'UNAUTHORIZED', status: 401 } });
    await expect(stale.post('/tss/v2/sign_ed25519/round1', { msg: 'abcd' })).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(expired).toEqual([failure]);
  });
});

describe('recovery, heal and export', () => {
  it('a fresh device recovers the shares from the server part + 2 nodes and signs with the same key', async () => {
    const { wallet, email } = await emailUserWithWallet();
    const device = newWallet();
    const outcome = await device.signIn(await emailIdToken(device, email, 2));
    expect(outcome.status).toBe('needs_recovery');
    await expect(svmWallet(device)).rejects.toMatchObject({ code: 'NO_LOCAL_SHARE' });
    await device.recover();
    const before = (await svmWallet(wallet)).address;
    const chain = await svmWallet(device);
    expect(chain.address).toBe(before);
    const { signature } = await chain.signMessage('recovered');
    expect(await kitVerifies(chain.address, signature, new TextEncoder().encode('recovered'))).toBe(true);
    // The recovered secp256k1 share is the one dealt at keygen (deterministic dealing).
    const shareKey = (w: SvcWallet) => `svc-wallet:${w.user!.wallets.find((x) => x.curve === 'secp256k1')!.wallet_id}:secp256k1`;
    expect(JSON.parse((await device.storage.get(shareKey(device)))!).secret_share).toBe(JSON.parse((await wallet.storage.get(shareKey(wallet)))!).secret_share);
  });

  it('a wiped node is reported, healed from the others and confirmed; a recovery then works with it', async () => {
    const { wallet, email } = await emailUserWithWallet();
    const node2 = stack.nodes.node('node-2');
    await node2.stop();
    await node2.start({ wipe: true });

    // A sign-in after the node came back commits the new token to it too.
    const signedIn = await wallet.signIn(await emailIdToken(wallet, email, 2));
    expect(signedIn.status).toBe('ready');
    expect(signedIn.check).toMatchObject({ needs_reshare: true, reshare_reasons: ['UNRECOVERABLE_NODE_DATA_LOSS'] });
    expect(await wallet.heal()).toEqual(['node-2']);
    const after = await wallet.checkNodes();
    expect(after.keyshare_node_meta.nodes.map((n) => n.wallet_status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
    expect(after.needs_reshare).toBe(false);
    expect(await wallet.heal()).toEqual([]);

    // node-1 down: node-2's healed share + node-3 recover the wallet on a new device.
    const node1 = stack.nodes.node('node-1');
    await node1.stop();
    try {
      const device = newWallet({ keyshareNodes: stack.nodeRefs, keyshareThreshold: 2 });
      expect((await device.signIn(await emailIdToken(device, email, 3))).status).toBe('needs_recovery');
      await device.recover();
      expect((await svmWallet(device)).address).toBe((await svmWallet(wallet)).address);
    } finally {
      await node1.start();
    }
  });

  it('exports the keys behind a fresh sign-in: they derive the wallet public keys', async () => {
    const { wallet, email } = await emailUserWithWallet();
    const user = wallet.user!;
    const chains = await chainWallets(wallet);
    await expect(newWallet({ exportMaxAgeSeconds: 0 }).exportKeys(await emailIdToken(wallet, email, 2))).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });

    const keys = await wallet.exportKeys(await emailIdToken(wallet, email, 3));
    const secp = user.wallets.find((w) => w.curve === 'secp256k1')!.public_key;
    expect(toHex(secp256k1.getPublicKey(Buffer.from(keys.ethereum!.privateKey.slice(2), 'hex'), true))).toBe(secp);
    expect(privateKeyToAccount(keys.ethereum!.privateKey).address).toBe(chains.ethereum.address);
    expect(keys.solana!.secretKey).toHaveLength(64);
    const solanaSigner = await createKeyPairSignerFromBytes(keys.solana!.secretKey);
    expect(solanaSigner.address).toBe(chains.svm.address);
  });
});

describe('bad server answers are detected, never returned as a signature', () => {
  let wallet: SvcWallet;
  let email: string;
  beforeAll(async () => {
    ({ wallet, email } = await emailUserWithWallet());
  });
  afterEach(() => proxy.setTamper(null));

  const throughProxy = async () => {
    const w = newWallet({ gatewayUrl: proxy.url, storage: wallet.storage, keyshareNodes: stack.nodeRefs, keyshareThreshold: 2 });
    expect((await w.signIn(await emailIdToken(w, email, ++mailCount))).status).toBe('ready');
    return w;
  };
  let mailCount = 1;
  // Another valid curve point: the commitment of an unrelated signing.
  const otherPoint = '5866666666666666666666666666666666666666666666666666666666666666';

  it('a tampered commitment0 (valid point, wrong value) is PROTOCOL_ERROR', async () => {
    const chain = await svmWallet(await throughProxy());
    proxy.setTamper((path, body) => {
      if (path.endsWith('/tss/v1/sign')) (body.data as { commitment0: { hiding: string } }).commitment0.hiding = otherPoint;
    });
    const err = (await chain.signMessage('tampered').catch((e: unknown) => e)) as SvcError;
    expect(err).toBeInstanceOf(SvcError);
    expect(err.code).toBe('PROTOCOL_ERROR');
  });

  it('a commitment0 that is not a curve point is PROTOCOL_ERROR, in one call', async () => {
    const chain = await svmWallet(await throughProxy());
    const seen: string[] = [];
    proxy.setTamper((path, body) => {
      seen.push(path);
      if (path.endsWith('/tss/v1/sign')) (body.data as { commitment0: { binding: string } }).commitment0.binding = 'ff'.repeat(32);
    });
    await expect(chain.signMessage('garbage')).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    expect(seen.filter((p) => p === '/tss/v1/sign')).toHaveLength(1);
    expect(seen.filter((p) => p.startsWith('/tss/v2/sign_ed25519/'))).toEqual([]);
  });

  it('a tampered signature_share0 is PROTOCOL_ERROR naming the server', async () => {
    const chain = await svmWallet(await throughProxy());
    proxy.setTamper((path, body) => {
      if (path.endsWith('/tss/v1/sign')) (body.data as { signature_share0: { share: string } }).signature_share0.share = '01'.padEnd(64, '0');
    });
    const err = (await chain.signMessage('tampered share').catch((e: unknown) => e)) as SvcError;
    expect(err.code).toBe('PROTOCOL_ERROR');
    expect(err.msg).toContain('server');
  });

  it('a wrong wallet public key from the server is PROTOCOL_ERROR at sign-in', async () => {
    const w = newWallet({ gatewayUrl: proxy.url, storage: wallet.storage, keyshareNodes: stack.nodeRefs, keyshareThreshold: 2 });
    const idToken = await emailIdToken(w, email, ++mailCount);
    proxy.setTamper((path, body) => {
      if (path.endsWith('/user/signin')) {
        const u = (body.data as SignInResult).user;
        for (const x of u.wallets) if (x.curve === 'ed25519') x.public_key = otherPoint;
      }
    });
    await expect(w.signIn(idToken)).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
  });

  it("a secp256k1 key from the server other than the device's is PROTOCOL_ERROR at sign-in, and leaves no account", async () => {
    const w = newWallet({ gatewayUrl: proxy.url, storage: wallet.storage, keyshareNodes: stack.nodeRefs, keyshareThreshold: 2 });
    const idToken = await emailIdToken(w, email, ++mailCount);
    const attacker = toHex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true));
    proxy.setTamper((path, body) => {
      if (path.endsWith('/user/signin')) for (const x of (body.data as SignInResult).user.wallets) if (x.curve === 'secp256k1') x.public_key = attacker;
    });
    await expect(w.signIn(idToken)).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    expect(w.user).toBeUndefined();
  });

  it('a refresh naming another secp256k1 key does not change the signers: PROTOCOL_ERROR, not the attacker\'s address', async () => {
    const w = await throughProxy();
    const honest = (await w.signers()).secp256k1.publicKey;
    const attacker = toHex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true));
    proxy.setTamper((path, body) => {
      if (path.endsWith('/user/signin_silently')) for (const x of (body.data as SignInResult).user.wallets) if (x.curve === 'secp256k1') x.public_key = attacker;
    });
    // The refresh replaces the account with the server's answer (resume says the keys differ) ...
    await expect(w.restore()).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    // ... and signers built afterwards refuse it instead of taking the server's key.
    await expect(w.signers()).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    expect(toHex(honest)).not.toBe(attacker);
  });

  it('a keygen answer naming another public key is PROTOCOL_ERROR, and nothing is stored', async () => {
    const w = newWallet({ gatewayUrl: proxy.url, keyshareNodes: stack.nodeRefs, keyshareThreshold: 2 });
    const fresh = `user-${randomUUID().slice(0, 8)}@example.com`;
    expect((await w.signIn(await emailIdToken(w, fresh, 1))).status).toBe('needs_keygen');
    proxy.setTamper((path, body) => {
      if (path.endsWith('/keygen')) for (const x of (body.data as SignInResult).user.wallets) x.public_key = otherPoint;
    });
    await expect(w.keygen(['ed25519'])).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    expect(w.user).toBeUndefined();
  });
});
