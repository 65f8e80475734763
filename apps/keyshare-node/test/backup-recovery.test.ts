import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  aggregateEd25519,
  keygenSeedEd25519,
  signRound1ClientEd25519,
  sssNodeXCoordinate,
  signRound1ServerEd25519,
  signRound2ClientEd25519,
  signRound2ServerEd25519,
  toHex,
} from '@svc/crypto';
import type { LocalOidcIssuer } from '@svc/auth/testing';
import {
  backupUserPart,
  combineWalletSeed,
  commitToNodes,
  expectWalletKey,
  healLostNodes,
  IdTokenSession,
  KeyshareBackupError,
  KeyshareNodeClient,
  recoverUserPart,
  splitWalletSeed,
} from '@svc/keyshare-client';
import { startTestNodes, type TestNodes } from '../src/testing.js';
import { startLogin } from './support/fixtures.js';

const THRESHOLD = 2;
let issuer: LocalOidcIssuer;
let nodes: TestNodes;
let clients: KeyshareNodeClient[];

beforeAll(async () => {
  const login = await startLogin();
  issuer = login.issuer;
  nodes = await startTestNodes({ names: ['node-1', 'node-2', 'node-3'], verifyIdToken: login.verifyIdToken });
  clients = nodes.nodes.map((n) => new KeyshareNodeClient(n, { timeoutMs: 2000 }));
});
afterAll(async () => {
  await nodes.stop();
  await issuer.close();
});

/** A new sign-in: a fresh ID token and session key, committed to every reachable node first. */
async function signIn(sub: string, reachable = clients): Promise<IdTokenSession> {
  const session = IdTokenSession.create(await issuer.issue({ sub, nonce: Math.random().toString(36) }));
  await commitToNodes(reachable, session);
  return session;
}

/** An Ed25519 signature made with 2-of-2 FROST from a seed, checked by OpenSSL through node:crypto. */
function signAndVerifyWithNodeCrypto(seed: Uint8Array, publicKeyHex: string): boolean {
  const { keygen1, keygen2, publicKeyPackage, publicKey } = keygenSeedEd25519(seed);
  expect(toHex(publicKey)).toBe(publicKeyHex);
  const msg = new TextEncoder().encode('recovered on a new device');
  const client = signRound1ClientEd25519(keygen1);
  const server = signRound1ServerEd25519(keygen2);
  const both = { msg, commitment0: server.commitment0, commitment1: client.commitment1 };
  const signatureShare1 = signRound2ClientEd25519({ ...both, keyPackage: keygen1, nonces: client.nonces });
  const signatureShare0 = signRound2ServerEd25519({ ...both, keyPackage: keygen2, nonces: server.nonces });
  const signature = aggregateEd25519({ ...both, publicKeyPackage, signatureShare0, signatureShare1 });
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKey)]);
  return nodeVerify(null, msg, createPublicKey({ key: spki, format: 'der', type: 'spki' }), signature);
}

describe('backup, data loss, heal and recovery over three nodes (threshold 2)', () => {
  it('backs up at keygen, heals a wiped node, and recovers from any two nodes', async () => {
    // Keygen on the first device: seed -> 2-of-2 parts; the user part goes 2-of-3 to the nodes.
    const { seed, publicKey } = keygenSeedEd25519();
    const wallet = { curve: 'ed25519' as const, publicKey: toHex(publicKey) };
    const { serverPart, userPart } = await splitWalletSeed(seed);
    const keygenSession = await signIn('alice');
    const outcomes = await backupUserPart({ nodes: clients, threshold: THRESHOLD, session: keygenSession, wallet, userPart });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    for (const c of clients) expect(await c.check(wallet)).toBe(true);
    // Each node holds a different share, none of them the user part itself.
    const held = await Promise.all(clients.map(async (c) => (await c.fetchShare(keygenSession, wallet)).share));
    expect(new Set(held).size).toBe(3);
    expect(held).not.toContain(toHex(userPart));

    // node-2 loses its database.
    await nodes.node('node-2').stop();
    await nodes.node('node-2').start({ wipe: true });
    expect(await clients[1]!.check(wallet)).toBe(false);

    // Heal from the two others: node-2 gets a share at its own x on the same polynomial.
    const healSession = await signIn('alice');
    const verify = expectWalletKey('ed25519', wallet.publicKey, serverPart);
    const healed = await healLostNodes({ nodes: clients, lost: ['node-2'], threshold: THRESHOLD, session: healSession, wallet, verify });
    expect(healed.resharedKeyShares).toEqual([{ name: 'node-2', endpoint: nodes.node('node-2').endpoint }]);
    expect(await clients[1]!.check(wallet)).toBe(true);
    expect((await clients[1]!.fetchShare(healSession, wallet)).share).toBe(held[1]);

    // A new device: any two nodes (here each pair in turn) give the user part back.
    for (const pair of [[0, 1], [1, 2], [0, 2]]) {
      const subset = pair.map((i) => clients[i]!);
      const session = await signIn('alice', subset);
      const { userPart: recovered } = await recoverUserPart({ nodes: subset, threshold: THRESHOLD, session, wallet, verify });
      const seedAgain = await combineWalletSeed('ed25519', wallet.publicKey, { serverPart, userPart: recovered });
      expect(toHex(seedAgain)).toBe(toHex(seed));
      expect(signAndVerifyWithNodeCrypto(seedAgain, wallet.publicKey)).toBe(true);
    }
  });

  it('recovers while a node is down, and refuses with fewer than the threshold', async () => {
    const { seed, publicKey } = keygenSeedEd25519();
    const wallet = { curve: 'ed25519' as const, publicKey: toHex(publicKey) };
    const { serverPart, userPart } = await splitWalletSeed(seed);
    await backupUserPart({ nodes: clients, threshold: THRESHOLD, session: await signIn('bob'), wallet, userPart });
    const verify = expectWalletKey('ed25519', wallet.publicKey, serverPart);

    await nodes.node('node-3').stop();
    try {
      const session = await signIn('bob', clients.slice(0, 2));
      const { userPart: recovered, outcomes } = await recoverUserPart({ nodes: clients, threshold: THRESHOLD, session, wallet, verify });
      expect(toHex(recovered)).toBe(toHex(userPart));
      expect(outcomes.find((o) => o.name === 'node-3')).toMatchObject({ ok: false, error: { code: 'NODE_UNREACHABLE' } });

      await nodes.node('node-2').stop();
      const alone = await signIn('bob', clients.slice(0, 1));
      const failure = await recoverUserPart({ nodes: clients, threshold: THRESHOLD, session: alone, wallet, verify }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(KeyshareBackupError);
      expect((failure as Error).message).toBe('got 1 shares, need 2');
    } finally {
      if (!nodes.node('node-2').running) await nodes.node('node-2').start();
      if (!nodes.node('node-3').running) await nodes.node('node-3').start();
    }
  });

  it("another user's sign-in gets none of the shares, and cannot heal over them", async () => {
    const { seed, publicKey } = keygenSeedEd25519();
    const wallet = { curve: 'ed25519' as const, publicKey: toHex(publicKey) };
    const { serverPart, userPart } = await splitWalletSeed(seed);
    await backupUserPart({ nodes: clients, threshold: THRESHOLD, session: await signIn('carol'), wallet, userPart });
    const mallory = await signIn('mallory');
    const failure = await recoverUserPart({ nodes: clients, threshold: THRESHOLD, session: mallory, wallet, verify: expectWalletKey('ed25519', wallet.publicKey, serverPart) }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(KeyshareBackupError);
    expect((failure as KeyshareBackupError).outcomes.map((o) => o.error?.code)).toEqual(['KEY_SHARE_NOT_FOUND', 'KEY_SHARE_NOT_FOUND', 'KEY_SHARE_NOT_FOUND']);
    // Overwriting carol's shares with a "reshare" of mallory's own: refused on every node.
    const overwrite = await backupUserPart({ nodes: clients, threshold: THRESHOLD, session: mallory, wallet, userPart: new Uint8Array(33).fill(9) }).catch((e: unknown) => e);
    expect((overwrite as KeyshareBackupError).outcomes.map((o) => o.error?.code)).toEqual(['KEY_SHARE_ALREADY_EXISTS', 'KEY_SHARE_ALREADY_EXISTS', 'KEY_SHARE_ALREADY_EXISTS']);
    const carol = await signIn('carol');
    const { userPart: still } = await recoverUserPart({ nodes: clients, threshold: THRESHOLD, session: carol, wallet, verify: expectWalletKey('ed25519', wallet.publicKey, serverPart) });
    expect(toHex(still)).toBe(toHex(userPart));
  });

  it('heals when a node listed lost still holds this wallet\'s share (user/check lists nodes per account, not per wallet)', async () => {
    // Two wallets whose missing backups are on different nodes make user/check list both nodes for
    // both wallets: here node-2 is listed with node-3 although it holds this wallet's share.
    const { seed, publicKey } = keygenSeedEd25519();
    const wallet = { curve: 'ed25519' as const, publicKey: toHex(publicKey) };
    const { serverPart, userPart } = await splitWalletSeed(seed);
    const session = await signIn('ivan');
    await backupUserPart({ nodes: clients, threshold: THRESHOLD, session, wallet, userPart });
    const held = await Promise.all(clients.map(async (c) => (await c.fetchShare(session, wallet)).share));
    await nodes.node('node-3').stop();
    await nodes.node('node-3').start({ wipe: true });

    const healSession = await signIn('ivan');
    const verify = expectWalletKey('ed25519', wallet.publicKey, serverPart);
    const healed = await healLostNodes({ nodes: clients, lost: ['node-2', 'node-3'], threshold: THRESHOLD, session: healSession, wallet, verify });
    // node-2's share is a source (it agrees with node-1's), node-3 gets its own share back: both now hold the backup.
    expect(healed.resharedKeyShares.map((r) => r.name)).toEqual(['node-2', 'node-3']);
    expect((await clients[1]!.fetchShare(healSession, wallet)).share).toBe(held[1]);
    expect((await clients[2]!.fetchShare(healSession, wallet)).share).toBe(held[2]);
  });
});

describe('one node answering a bad share (four nodes, threshold 2)', () => {
  let four: TestNodes;
  let all: KeyshareNodeClient[];
  let login: Awaited<ReturnType<typeof startLogin>>;
  beforeAll(async () => {
    login = await startLogin();
    four = await startTestNodes({ names: ['node-1', 'node-2', 'node-3', 'node-4'], verifyIdToken: login.verifyIdToken });
    all = four.nodes.map((n) => new KeyshareNodeClient(n, { timeoutMs: 2000 }));
  });
  afterAll(async () => {
    await four.stop();
    await login.issuer.close();
  });
  const signInFour = async (sub: string, reachable = all) => {
    const session = IdTokenSession.create(await login.issuer.issue({ sub, nonce: Math.random().toString(36) }));
    await commitToNodes(reachable, session);
    return session;
  };

  /** A wallet backed up on the four nodes, then node-4's share replaced by one off the polynomial (its own x, the right length). */
  async function walletWithCorruptNode4(sub: string) {
    const { seed, publicKey } = keygenSeedEd25519();
    const wallet = { curve: 'ed25519' as const, publicKey: toHex(publicKey) };
    const { serverPart, userPart } = await splitWalletSeed(seed);
    const session = await signInFour(sub);
    await backupUserPart({ nodes: all, threshold: THRESHOLD, session, wallet, userPart });
    const good = await Promise.all(all.map(async (c) => (await c.fetchShare(session, wallet)).share));
    const junk = Buffer.from(good[3]!, 'hex');
    junk[0]! ^= 0x5a;
    await all[3]!.register(session, wallet, junk.toString('hex'), { reshare: true });
    return { seed, wallet, serverPart, userPart, good, verify: expectWalletKey('ed25519', wallet.publicKey, serverPart) };
  }

  it('recovers from the others and names the node, instead of failing', async () => {
    const { wallet, userPart, verify, serverPart, seed } = await walletWithCorruptNode4('erin');
    const { userPart: recovered, outcomes } = await recoverUserPart({ nodes: all, threshold: THRESHOLD, session: await signInFour('erin'), wallet, verify });
    expect(toHex(recovered)).toBe(toHex(userPart));
    expect(toHex(await combineWalletSeed('ed25519', wallet.publicKey, { serverPart, userPart: recovered }))).toBe(toHex(seed));
    expect(outcomes.map((o) => [o.name, o.ok, o.error?.code])).toEqual([
      ['node-1', true, undefined],
      ['node-2', true, undefined],
      ['node-3', true, undefined],
      ['node-4', false, 'INVALID_SHARE'],
    ]);
  });

  it('heals a wiped node from the good shares, leaving the bad one out', async () => {
    const { wallet, verify, good } = await walletWithCorruptNode4('frank');
    await four.node('node-2').stop();
    await four.node('node-2').start({ wipe: true });
    const session = await signInFour('frank');
    const healed = await healLostNodes({ nodes: all, lost: ['node-2'], threshold: THRESHOLD, session, wallet, verify });
    expect(healed.resharedKeyShares).toEqual([{ name: 'node-2', endpoint: four.node('node-2').endpoint }]);
    expect(healed.outcomes.map((o) => [o.name, o.ok, o.error?.code])).toEqual([
      ['node-2', true, undefined],
      ['node-4', false, 'INVALID_SHARE'],
    ]);
    // node-2's share is the one it had: the bad share took no part in making it.
    expect((await all[1]!.fetchShare(session, wallet)).share).toBe(good[1]);
  });

  it('still refuses when fewer than t good shares are left, and without verify cannot tell', async () => {
    const { wallet, verify } = await walletWithCorruptNode4('grace');
    const two = [all[0]!, all[3]!];
    const failure = await recoverUserPart({ nodes: two, threshold: THRESHOLD, session: await signInFour('grace', two), wallet, verify }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: 'CryptoError', code: 'INVALID_SHARE' });
    const blind = await recoverUserPart({ nodes: all, threshold: THRESHOLD, session: await signInFour('grace'), wallet }).catch((e: unknown) => e);
    expect(blind).toMatchObject({ name: 'CryptoError', code: 'INVALID_SHARE' });
  });

  it("refuses a share at another node's x-coordinate as that node's bad answer", async () => {
    const { wallet, userPart, verify } = await walletWithCorruptNode4('heidi');
    // node-3 answers through a proxy that moves its share to node-1's x (as a faulty node could).
    const target = new URL(four.node('node-3').endpoint);
    const proxy = createServer((req, res) => {
      const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { share?: string } };
          if (body.data?.share) body.data.share = body.data.share.slice(0, -2) + sssNodeXCoordinate('node-1').toString(16).padStart(2, '0');
          res.writeHead(up.statusCode ?? 502, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        });
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const nodes = [all[0]!, new KeyshareNodeClient({ name: 'node-3', endpoint: `http://127.0.0.1:${port}` }, { timeoutMs: 2000 }), all[1]!];
      const { userPart: recovered, outcomes } = await recoverUserPart({ nodes, threshold: THRESHOLD, session: await signInFour('heidi'), wallet, verify });
      expect(toHex(recovered)).toBe(toHex(userPart));
      expect(outcomes.find((o) => o.name === 'node-3')).toMatchObject({ ok: false, error: { code: 'INVALID_RESPONSE' } });
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
