import { createIdTokenVerifier, type VerifiedIdentity } from '@svc/auth';
import { sssNodeXCoordinate, toHex } from '@svc/crypto';
import { createPrivateKey, sign as nodeSign } from 'node:crypto';
import {
  backupUserPart,
  combineWalletSeed,
  commitToNodes,
  expectWalletKey,
  healLostNodes,
  IdTokenSession,
  KeyshareNodeClient,
  recoverUserPart,
} from '@svc/keyshare-client';
import { startTestNodes, type TestNodes } from '@svc/keyshare-node/testing';
import { startHarness, type Harness } from './support/harness.js';
import { createWalletUser, type WalletUser } from './support/wallet-user.js';
import { freshIdToken } from './support/id-tokens.js';
import { ed25519KeygenBody, newEd25519Key, post, verifyWithNode } from './support/wallet-client.js';

interface CheckData {
  exists: boolean;
  keyshare_node_meta: { threshold: number; nodes: { name: string; endpoint: string; wallet_status: string; node_status?: string }[] };
  needs_reshare: boolean;
  reshare_reasons?: string[];
  active_nodes_below_threshold: boolean;
}

let h: Harness;
let nodes: TestNodes;
let clients: KeyshareNodeClient[];
let verifyNodeToken: (token: string) => Promise<VerifiedIdentity>;

beforeAll(async () => {
  // The nodes accept the harness's Google issuer, known only once the harness runs.
  nodes = await startTestNodes({ names: ['node-1', 'node-2', 'node-3'], verifyIdToken: (t) => verifyNodeToken(t) });
  h = await startHarness({
    KEYSHARE_NODES: nodes.nodes.map((n) => `${n.name}=${n.endpoint}`).join(','),
    KEYSHARE_THRESHOLD: '2',
  });
  const verifier = createIdTokenVerifier({ google: { issuer: h.google.issuer, audience: h.google.audience, jwksUri: h.google.jwksUri } });
  verifyNodeToken = (t) => verifier.verifyIdToken(t);
  clients = nodes.nodes.map((n) => new KeyshareNodeClient(n, { timeoutMs: 2000 }));
});
afterAll(async () => {
  await h.stop();
  await nodes.stop();
});

async function check(email: string): Promise<CheckData> {
  const res = await post<CheckData>(h.baseUrl, '/tss/v1/user/check', { email });
  expect(res.status).toBe(200);
  return res.body.data!;
}

/** A fresh ID token of the same Google user, committed to the given nodes before anyone sees it. */
async function signIn(user: WalletUser, reachable = clients): Promise<IdTokenSession> {
  const dbUser = await h.t.db.user.findUniqueOrThrow({ where: { id: user.userId } });
  const session = IdTokenSession.create(await h.google.issue({ sub: dbUser.providerSubject, email: dbUser.email, nonce: Math.random().toString(36) }));
  await commitToNodes(reachable, session);
  return session;
}

const statuses = (d: CheckData) => d.keyshare_node_meta.nodes.map((n) => `${n.name}:${n.wallet_status}:${n.node_status}`);

/**
 * createWalletUser runs keygen before any backup exists, so keygen records none: a backup made
 * afterwards counts once its owner names the nodes in user/reshare (as after a heal).
 */
async function backUpAndConfirm(user: WalletUser, wallet: { curve: 'ed25519'; publicKey: string }): Promise<void> {
  const session = await signIn(user);
  await backupUserPart({ nodes: clients, threshold: 2, session, wallet, userPart: user.key.userSeedPart });
  const all = nodes.nodes.map((n) => ({ name: n.name, endpoint: n.endpoint }));
  const res = await post(h.baseUrl, '/tss/v1/user/reshare', { public_key: wallet.publicKey, reshared_key_shares: all }, { authorization: `Bearer ${session.idToken}`, 'x-api-key': h.apiKey });
  expect(res.status).toBe(200);
}

describe('user/check with node status, user/reshare after data loss, recovery (three real nodes, threshold 2)', () => {
  it('keygen with backups -> ACTIVE; wiped node -> UNRECOVERABLE_DATA_LOSS; heal + user/reshare -> ACTIVE; recovery signs', async () => {
    const user = await createWalletUser(h);
    const email = (await h.t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).email;
    const wallet = { curve: 'ed25519' as const, publicKey: toHex(user.key.keygen.publicKey) };
    await backUpAndConfirm(user, wallet);

    const healthy = await check(email);
    expect(healthy).toEqual({
      exists: true,
      keyshare_node_meta: { threshold: 2, nodes: nodes.nodes.map((n) => ({ name: n.name, endpoint: n.endpoint, wallet_status: 'ACTIVE', node_status: 'ONLINE' })) },
      needs_reshare: false,
      active_nodes_below_threshold: false,
    });
    expect(healthy).not.toHaveProperty('reshare_reasons');

    await nodes.node('node-2').stop();
    await nodes.node('node-2').start({ wipe: true });
    const lost = await check(email);
    expect(statuses(lost)).toEqual(['node-1:ACTIVE:ONLINE', 'node-2:UNRECOVERABLE_DATA_LOSS:ONLINE', 'node-3:ACTIVE:ONLINE']);
    expect(lost).toMatchObject({ needs_reshare: true, reshare_reasons: ['UNRECOVERABLE_NODE_DATA_LOSS'], active_nodes_below_threshold: false });

    // Reshare validation (spec 4.1 rules 6-7) and refusal while node-2 still lacks the share.
    const session = await signIn(user);
    const headers = { authorization: `Bearer ${session.idToken}`, 'x-api-key': h.apiKey };
    const reshare = (body: unknown) => post(h.baseUrl, '/tss/v1/user/reshare', body, headers);
    const node2 = { name: 'node-2', endpoint: nodes.node('node-2').endpoint };
    expect((await reshare({ public_key: 'xyz', reshared_key_shares: [node2] })).body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'Invalid public key' });
    expect((await reshare({ reshared_key_shares: [node2] })).body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'Invalid public key' });
    expect((await reshare({ public_key: 'ab'.repeat(32), reshared_key_shares: [node2] })).body.msg).toBe('Invalid public key');
    expect((await reshare({ public_key: wallet.publicKey })).body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'reshared_key_shares is required' });
    expect((await reshare({ public_key: wallet.publicKey, reshared_key_shares: [] })).body.msg).toBe('reshared_key_shares is required');
    expect((await reshare({ public_key: wallet.publicKey, reshared_key_shares: 'node-2' })).body.msg).toBe('reshared_key_shares is required');
    expect((await reshare({ public_key: wallet.publicKey, reshared_key_shares: ['node-2'] })).body.msg).toBe('reshared_key_shares[] must be {name, endpoint} objects');
    expect((await reshare({ public_key: wallet.publicKey, reshared_key_shares: [{ endpoint: node2.endpoint }] })).body.msg).toBe('reshared_key_shares[].name must be a node name');
    expect((await reshare({ public_key: wallet.publicKey, reshared_key_shares: [{ name: 'node-2', endpoint: 'nope' }] })).body.msg).toBe('reshared_key_shares[].endpoint must be a URL');
    expect((await reshare({ public_key: wallet.publicKey, reshared_key_shares: [{ ...node2, share: 'x' }] })).body.msg).toBe('Unknown field: reshared_key_shares[0].share');
    expect((await reshare({ public_key: wallet.publicKey, reshared_key_shares: [{ name: 'node-9', endpoint: node2.endpoint }] })).body.msg).toBe('Unknown key share node: node-9');
    const premature = await reshare({ public_key: wallet.publicKey, reshared_key_shares: [node2] });
    expect(premature.body).toEqual({ success: false, code: 'KEY_SHARE_NOT_FOUND', msg: 'Key share node node-2 does not hold the share' });
    expect(statuses(await check(email))[1]).toBe('node-2:UNRECOVERABLE_DATA_LOSS:ONLINE');

    // Heal: re-create node-2's share from node-1 and node-3, register it, report it.
    const verify = expectWalletKey('ed25519', wallet.publicKey, user.key.serverSeedPart);
    const healed = await healLostNodes({ nodes: clients, lost: ['node-2'], threshold: 2, session, wallet, verify });
    const ok = await reshare({ public_key: wallet.publicKey, reshared_key_shares: healed.resharedKeyShares });
    expect(ok.body).toEqual({ success: true, data: null });
    // The same ID token confirms this wallet's reshare once (the refused attempt above did not count).
    const replayed = await reshare({ public_key: wallet.publicKey, reshared_key_shares: healed.resharedKeyShares });
    expect(replayed.body).toEqual({ success: false, code: 'ID_TOKEN_REPLAYED', msg: 'This ID token was already used for this operation; sign in again' });
    const after = await check(email);
    expect(statuses(after)).toEqual(['node-1:ACTIVE:ONLINE', 'node-2:ACTIVE:ONLINE', 'node-3:ACTIVE:ONLINE']);
    expect(after).toMatchObject({ needs_reshare: false, active_nodes_below_threshold: false });
    expect(after).not.toHaveProperty('reshare_reasons');

    // A new device: two nodes give the user part back; with the server part it is the wallet's
    // seed, whose Ed25519 signature node:crypto verifies.
    for (const pair of [[0, 1], [1, 2]]) {
      const subset = pair.map((i) => clients[i]!);
      const { userPart } = await recoverUserPart({ nodes: subset, threshold: 2, session: await signIn(user, subset), wallet, verify });
      const seed = await combineWalletSeed('ed25519', wallet.publicKey, { serverPart: user.key.serverSeedPart, userPart });
      const msg = new TextEncoder().encode('recovered');
      const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
      expect(verifyWithNode(nodeSign(null, msg, privateKey), msg, user.key.keygen.publicKey)).toBe(true);
    }

    // The main server saw these ID tokens; replayed to a node without the session key they are refused.
    const replay = await fetch(`${nodes.node('node-1').endpoint}/keyshare/v1/keyshare`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ curve_type: 'ed25519', public_key: wallet.publicKey }),
    });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { code: string }).code).toBe('INVALID_REQUEST_SIGNATURE');
  });

  /**
   * A new Google user's keygen while node-2 is down, in the client's order: back up on the nodes
   * first (two of three suffice), then keygen. Also returns a fresh ID token maker for that user.
   */
  async function keygenWhileNode2Down() {
    const { token: idToken, email } = await freshIdToken(h, 'GOOGLE');
    const key = await newEd25519Key();
    const wallet = { curve: 'ed25519' as const, publicKey: toHex(key.keygen.publicKey) };
    const session = IdTokenSession.create(idToken);
    await nodes.node('node-2').stop();
    try {
      await commitToNodes(clients, session, 2);
      await backupUserPart({ nodes: clients, threshold: 2, session, wallet, userPart: key.userSeedPart });
      const res = await post<{ user: { wallet_id: string } }>(h.baseUrl, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(key) }, { authorization: `Bearer ${idToken}`, 'x-api-key': h.apiKey });
      expect(res.status).toBe(200);
      const sub = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()).sub as string;
      /** A new sign-in of the same user, committed to every node. */
      const signInAgain = async (nonce: string) => {
        const again = IdTokenSession.create(await h.google.issue({ sub, email, nonce }));
        await commitToNodes(clients, again);
        return again;
      };
      return { email: email!, key, wallet, walletId: res.body.data!.user.wallet_id, signInAgain };
    } finally {
      await nodes.node('node-2').start();
    }
  }

  it('keygen while a node is down records only the nodes that confirmed; user/check reports the missing backup until healed', async () => {
    const { email, key, wallet, walletId, signInAgain } = await keygenWhileNode2Down();
    const recorded = await h.t.db.walletKeyShareNodeStatus.findMany({ where: { walletId }, include: { node: true } });
    expect(recorded.map((r) => `${r.node.name}:${r.status}`).sort()).toEqual(['node-1:ACTIVE', 'node-3:ACTIVE']);

    const missing = await check(email);
    expect(statuses(missing)).toEqual(['node-1:ACTIVE:ONLINE', 'node-2:NOT_REGISTERED:ONLINE', 'node-3:ACTIVE:ONLINE']);
    expect(missing).toMatchObject({ exists: true, needs_reshare: true, reshare_reasons: ['MISSING_NODE_BACKUP'], active_nodes_below_threshold: false });

    // Repaired like a data loss: node-2's share from node-1 and node-3, then user/reshare.
    const healSession = await signInAgain('heal');
    const verify = expectWalletKey('ed25519', wallet.publicKey, key.serverSeedPart);
    const healed = await healLostNodes({ nodes: clients, lost: ['node-2'], threshold: 2, session: healSession, wallet, verify });
    const headers = { authorization: `Bearer ${healSession.idToken}`, 'x-api-key': h.apiKey };
    expect((await post(h.baseUrl, '/tss/v1/user/reshare', { public_key: wallet.publicKey, reshared_key_shares: healed.resharedKeyShares }, headers)).status).toBe(200);
    const after = await check(email);
    expect(statuses(after)).toEqual(['node-1:ACTIVE:ONLINE', 'node-2:ACTIVE:ONLINE', 'node-3:ACTIVE:ONLINE']);
    expect(after).toMatchObject({ needs_reshare: false });
    expect(after).not.toHaveProperty('reshare_reasons');
  });

  it("a stranger's share for the key on the node that missed keygen does not count as the owner's backup", async () => {
    const { email, key, wallet, signInAgain } = await keygenWhileNode2Down();
    // Mallory, signed in as herself, squats the victim's public key on node-2 with junk.
    const mallory = await createWalletUser(h);
    const junk = new Uint8Array(key.userSeedPart.length + 1).fill(7);
    junk[junk.length - 1] = sssNodeXCoordinate('node-2');
    await clients[1]!.register(await signIn(mallory), wallet, toHex(junk));
    expect(await clients[1]!.check(wallet)).toBe(true);

    // user/check (anyone may call it) does not take mallory's share for the owner's backup.
    const seen = await check(email);
    expect(statuses(seen)).toEqual(['node-1:ACTIVE:ONLINE', 'node-2:NOT_REGISTERED:ONLINE', 'node-3:ACTIVE:ONLINE']);
    expect(seen).toMatchObject({ needs_reshare: true, reshare_reasons: ['MISSING_NODE_BACKUP'] });
    const recorded = await h.t.db.walletKeyShareNodeStatus.findMany({ where: { wallet: { publicKey: wallet.publicKey } }, include: { node: true } });
    expect(recorded.map((r) => `${r.node.name}:${r.status}`).sort()).toEqual(['node-1:ACTIVE', 'node-3:ACTIVE']);

    // The owner's heal is refused there (the node keeps the first owner), so the backup stays reported missing.
    const healSession = await signInAgain('heal-squatted');
    const healed = await healLostNodes({ nodes: clients, lost: ['node-2'], threshold: 2, session: healSession, wallet, verify: expectWalletKey('ed25519', wallet.publicKey, key.serverSeedPart) });
    expect(healed.resharedKeyShares).toEqual([]);
    expect(healed.outcomes).toMatchObject([{ name: 'node-2', ok: false, error: { code: 'KEY_SHARE_ALREADY_EXISTS' } }]);
    expect(statuses(await check(email))).toEqual(['node-1:ACTIVE:ONLINE', 'node-2:NOT_REGISTERED:ONLINE', 'node-3:ACTIVE:ONLINE']);
  });

  it('a node down: check still answers; below threshold once fewer than 2 active nodes answer', async () => {
    const user = await createWalletUser(h);
    const email = (await h.t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).email;
    const wallet = { curve: 'ed25519' as const, publicKey: toHex(user.key.keygen.publicKey) };
    const session = await signIn(user);
    await backupUserPart({ nodes: clients, threshold: 2, session, wallet, userPart: user.key.userSeedPart });
    // Backed up after keygen here: the nodes hold shares, but only the owner's user/reshare makes them count.
    const unconfirmed = await check(email);
    expect(statuses(unconfirmed)).toEqual(['node-1:NOT_REGISTERED:ONLINE', 'node-2:NOT_REGISTERED:ONLINE', 'node-3:NOT_REGISTERED:ONLINE']);
    expect(unconfirmed).toMatchObject({ needs_reshare: true, reshare_reasons: ['MISSING_NODE_BACKUP'], active_nodes_below_threshold: true });
    const all = nodes.nodes.map((n) => ({ name: n.name, endpoint: n.endpoint }));
    const confirm = await post(h.baseUrl, '/tss/v1/user/reshare', { public_key: wallet.publicKey, reshared_key_shares: all }, { authorization: `Bearer ${session.idToken}`, 'x-api-key': h.apiKey });
    expect(confirm.status).toBe(200);
    expect(statuses(await check(email))).toEqual(['node-1:ACTIVE:ONLINE', 'node-2:ACTIVE:ONLINE', 'node-3:ACTIVE:ONLINE']);
    try {
      await nodes.node('node-3').stop();
      const one = await check(email);
      expect(statuses(one)).toEqual(['node-1:ACTIVE:ONLINE', 'node-2:ACTIVE:ONLINE', 'node-3:ACTIVE:UNREACHABLE']);
      expect(one).toMatchObject({ needs_reshare: false, active_nodes_below_threshold: false });

      await nodes.node('node-2').stop();
      const started = Date.now();
      const two = await check(email);
      expect(Date.now() - started).toBeLessThan(2500);
      expect(statuses(two)).toEqual(['node-1:ACTIVE:ONLINE', 'node-2:ACTIVE:UNREACHABLE', 'node-3:ACTIVE:UNREACHABLE']);
      expect(two).toMatchObject({ needs_reshare: false, active_nodes_below_threshold: true });

      const headers = { authorization: `Bearer ${(await signIn(user, clients.slice(0, 1))).idToken}`, 'x-api-key': h.apiKey };
      const down = await post(h.baseUrl, '/tss/v1/user/reshare', { public_key: wallet.publicKey, reshared_key_shares: [{ name: 'node-2', endpoint: nodes.node('node-2').endpoint }] }, headers);
      expect(down.body).toEqual({ success: false, code: 'UPSTREAM_UNAVAILABLE', msg: 'Key share node node-2 is unavailable' });
    } finally {
      if (!nodes.node('node-2').running) await nodes.node('node-2').start();
      if (!nodes.node('node-3').running) await nodes.node('node-3').start();
    }
    expect((await check(email)).active_nodes_below_threshold).toBe(false);
  });

  it('an unknown email: every node NOT_REGISTERED, no reshare, not below threshold (spec §3 rule 1)', async () => {
    expect(await check('nobody-here@example.com')).toEqual({
      exists: false,
      keyshare_node_meta: { threshold: 2, nodes: nodes.nodes.map((n) => ({ name: n.name, endpoint: n.endpoint, wallet_status: 'NOT_REGISTERED' })) },
      needs_reshare: false,
      active_nodes_below_threshold: false,
    });
  });
});
