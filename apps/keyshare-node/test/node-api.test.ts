import request from 'supertest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { listMountedRoutes } from '@svc/http';
import { sssNodeXCoordinate, toHex } from '@svc/crypto';
import type { LocalOidcIssuer } from '@svc/auth/testing';
import {
  canonicalRequest,
  IdTokenSession,
  KeyshareNodeClient,
  KeyshareNodeError,
  sha256Hex,
  SIGNED_REQUEST_HEADERS,
} from '@svc/keyshare-client';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { startTestNodes, type TestNodes } from '../src/testing.js';
import { randomEd25519Key, startLogin } from './support/fixtures.js';

let login: { issuer: LocalOidcIssuer; verifyIdToken: (t: string) => Promise<never> } & Awaited<ReturnType<typeof startLogin>>;
let nodes: TestNodes;
let node1: KeyshareNodeClient;
let node2: KeyshareNodeClient;

beforeAll(async () => {
  login = (await startLogin()) as typeof login;
  nodes = await startTestNodes({ names: ['node-1', 'node-2'], verifyIdToken: login.verifyIdToken });
  node1 = new KeyshareNodeClient(nodes.node('node-1'));
  node2 = new KeyshareNodeClient(nodes.node('node-2'));
});
afterAll(async () => {
  await nodes.stop();
  await login.issuer.close();
});

/** A share at node-1's x-coordinate (the node refuses shares meant for another node). */
const shareFor = (name: string, fill = 7) => toHex(Uint8Array.from([...new Array(33).fill(fill), sssNodeXCoordinate(name)]));

async function committedSession(sub = `user-${Math.random()}`, clients = [node1, node2]): Promise<IdTokenSession> {
  const session = IdTokenSession.create(await login.issuer.issue({ sub }));
  for (const c of clients) await c.commit(session);
  return session;
}

async function rowCounts() {
  const db = nodes.node('node-1').db;
  return { shares: await db.keyShare.count(), commits: await db.idTokenCommit.count(), nonces: await db.usedNonce.count() };
}

/** Sends a signed request by hand, so tests can tamper with any part of it or send it twice. */
async function signedPost(
  path: string,
  body: unknown,
  o: { session: IdTokenSession; node?: string; signAs?: string; key?: Uint8Array; timestamp?: number; headers?: Record<string, string>; sentBody?: string },
) {
  const text = JSON.stringify(body);
  let headers = o.headers ?? o.session.signedHeaders(o.signAs ?? 'node-1', 'POST', path, text, o.timestamp ?? Date.now());
  if (o.key) {
    const [timestamp, nonce] = [headers[SIGNED_REQUEST_HEADERS.timestamp]!, headers[SIGNED_REQUEST_HEADERS.nonce]!];
    const message = canonicalRequest({ nodeName: o.signAs ?? 'node-1', method: 'POST', path, timestamp, nonce, idTokenHash: o.session.idTokenHash, bodySha256: sha256Hex(text) });
    headers = { ...headers, [SIGNED_REQUEST_HEADERS.signature]: toHex(ed25519.sign(utf8ToBytes(message), o.key)) };
  }
  const res = await request(nodes.node(o.node ?? 'node-1').endpoint).post(path).set(headers).set('content-type', 'application/json').send(o.sentBody ?? text);
  return Object.assign(res, { sentHeaders: headers });
}

describe('node info, monitoring and documentation', () => {
  it('serves its name, identity key and x-coordinate', async () => {
    const info = await node1.info();
    expect(info).toEqual({
      name: 'node-1',
      public_url: nodes.node('node-1').endpoint,
      identity_public_key: expect.stringMatching(/^[0-9a-f]{64}$/),
      x_coordinate: sssNodeXCoordinate('node-1'),
      protocol: 'svc-keyshare-request-v1',
    });
    // The generated identity is kept in the node's database: the same key after a restart.
    await nodes.node('node-1').stop();
    await nodes.node('node-1').start();
    expect((await node1.info()).identity_public_key).toBe(info.identity_public_key);
  });

  it('answers /health and /ready, and documents every mounted route', async () => {
    const endpoint = nodes.node('node-1').endpoint;
    expect((await request(endpoint).get('/health')).body).toEqual({ success: true, data: { status: 'ok' } });
    expect((await request(endpoint).get('/ready')).body).toEqual({ success: true, data: { status: 'ready' } });
    const config = loadConfig({ KS_NODE_NAME: 'doc-node', SHARE_ENCRYPTION_KEYS: 'k1:' + Buffer.alloc(32, 1).toString('base64') });
    const cipher = config.shareCipher();
    const { app, openapi } = createApp({ config, db: nodes.node('node-1').db, cipher, identity: { publicKey: '00'.repeat(32), sign: () => new Uint8Array(64) }, verifyIdToken: login.verifyIdToken });
    const paths = (openapi as { paths: Record<string, Record<string, unknown>> }).paths;
    // /docs itself is the documentation, not an API route.
    const mounted = listMountedRoutes(app).filter((r) => !r.startsWith('GET /docs'));
    expect(mounted.length).toBeGreaterThan(5);
    for (const route of mounted) {
      const [method, path] = route.split(' ') as [string, string];
      expect({ route, documented: Boolean(paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]) }).toEqual({ route, documented: true });
    }
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/commit/v1/id-token', '/keyshare/v1/register', '/keyshare/v1/keyshare', '/keyshare/v1/check', '/keyshare/v1/info']));
  });
});

describe('/commit/v1/id-token', () => {
  it('stores the first commit, accepts the same again, refuses another key for the same hash', async () => {
    const session = IdTokenSession.create(await login.issuer.issue());
    await node1.commit(session);
    await node1.commit(session);
    const attacker = IdTokenSession.create(session.idToken);
    await expect(node1.commit(attacker)).rejects.toMatchObject({ status: 401, code: 'ID_TOKEN_COMMITTED_TO_OTHER_KEY' });
    const row = await nodes.node('node-1').db.idTokenCommit.findUnique({ where: { tokenHash: session.commitKey } });
    expect(row?.sessionPublicKey).toBe(session.sessionPublicKey);
  });

  it('refuses bad input with a clear 400 and stores nothing', async () => {
    const before = await rowCounts();
    const endpoint = nodes.node('node-1').endpoint;
    const key = toHex(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
    const cases: [unknown, string][] = [
      [{ session_public_key: key }, 'id_token_hash is required'],
      [{ id_token_hash: 'ab'.repeat(32) }, 'session_public_key is required'],
      [{ id_token_hash: 'AB'.repeat(32), session_public_key: key }, 'id_token_hash must be 32 bytes in lowercase hex'],
      [{ id_token_hash: 'ab'.repeat(31), session_public_key: key }, 'id_token_hash must be 32 bytes in lowercase hex'],
      [{ id_token_hash: 'ab'.repeat(32), session_public_key: 'ff'.repeat(32) }, 'session_public_key must be a valid Ed25519 public key'],
      [{ id_token_hash: 'ab'.repeat(32), session_public_key: key, extra: 1 }, 'Unknown field: extra'],
      [{ id_token_hash: 12, session_public_key: key }, 'id_token_hash must be a string'],
    ];
    for (const [body, msg] of cases) {
      const res = await request(endpoint).post('/commit/v1/id-token').send(body as object);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, code: 'INVALID_REQUEST', msg } });
    }
    const malformed = await request(endpoint).post('/commit/v1/id-token').set('content-type', 'application/json').send('{"id_token_hash":');
    expect(malformed.status).toBe(400);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('/keyshare/v1/register and /keyshare/v1/keyshare', () => {
  it('stores a share encrypted at rest and returns it to its owner only', async () => {
    const session = await committedSession('owner-1');
    const wallet = { curve: 'ed25519' as const, publicKey: randomEd25519Key() };
    const share = shareFor('node-1');
    await node1.register(session, wallet, share);
    expect(await node1.fetchShare(session, wallet)).toEqual({ share_id: expect.any(String), share });
    expect(await node1.check(wallet)).toBe(true);

    const row = await nodes.node('node-1').db.keyShare.findUniqueOrThrow({ where: { curve_publicKey: { curve: 'ed25519', publicKey: wallet.publicKey } } });
    expect(row).toMatchObject({ authType: 'GOOGLE', subject: 'owner-1', shareKeyId: 'k1' });
    expect(Buffer.from(row.shareCiphertext).toString('hex')).not.toContain(share.slice(0, 40));
    expect(Buffer.from(row.shareCiphertext).includes(Buffer.from(share, 'hex').subarray(0, 16))).toBe(false);

    // Another user, with a properly committed token and session of their own: not theirs.
    const other = await committedSession('someone-else');
    await expect(node1.fetchShare(other, wallet)).rejects.toMatchObject({ status: 404, code: 'KEY_SHARE_NOT_FOUND', message: expect.stringContaining('Key share not found') });
  });

  it("refuses the main server's copy of the token: no signature, its own key, or an uncommitted token", async () => {
    const session = await committedSession('victim');
    const wallet = { curve: 'ed25519' as const, publicKey: randomEd25519Key() };
    await node1.register(session, wallet, shareFor('node-1'));
    const endpoint = nodes.node('node-1').endpoint;
    const body = { curve_type: 'ed25519', public_key: wallet.publicKey };

    // Bearer token alone (what the original product's nodes accepted).
    const bare = await request(endpoint).post('/keyshare/v1/keyshare').set('authorization', `Bearer ${session.idToken}`).send(body);
    expect(bare.status).toBe(401);
    expect(bare.body.code).toBe('INVALID_REQUEST_SIGNATURE');

    // Signed with a key of its own: the commit names the client's key.
    const thief = await signedPost('/keyshare/v1/keyshare', body, { session, key: ed25519.utils.randomSecretKey() });
    expect(thief.status).toBe(401);
    expect(thief.body).toEqual({ success: false, code: 'INVALID_REQUEST_SIGNATURE', msg: 'Request signature does not verify with the committed session key' });

    // Trying to commit the seen token to its own key first: refused, the client's commit stands.
    const reCommit = IdTokenSession.create(session.idToken);
    await expect(node1.commit(reCommit)).rejects.toMatchObject({ code: 'ID_TOKEN_COMMITTED_TO_OTHER_KEY' });

    // A token the client never committed (here: a fresh token of the victim).
    const uncommitted = IdTokenSession.create(await login.issuer.issue({ sub: 'victim', nonce: 'fresh' }));
    await expect(node1.fetchShare(uncommitted, wallet)).rejects.toMatchObject({ status: 401, code: 'ID_TOKEN_NOT_COMMITTED' });

    // Invalid tokens: expired, forged, missing.
    const expired = IdTokenSession.create(await login.issuer.issue({ sub: 'victim', nonce: 'expired' }, { expiresIn: -60 }));
    await node1.commit(expired);
    await expect(node1.fetchShare(expired, wallet)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: expect.stringContaining('Unauthorized') });
    const forged = IdTokenSession.create(await login.issuer.issue({ sub: 'victim', nonce: 'forged' }, { foreignKey: true }));
    await node1.commit(forged);
    await expect(node1.fetchShare(forged, wallet)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const none = await request(endpoint).post('/keyshare/v1/keyshare').send(body);
    expect(none.body).toEqual({ success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' });
  });

  it('refuses a replayed signed request, also under concurrency, and stale, retargeted or tampered ones', async () => {
    const session = await committedSession('replayer');
    const wallet = { curve: 'ed25519' as const, publicKey: randomEd25519Key() };
    await node1.register(session, wallet, shareFor('node-1'));
    const body = { curve_type: 'ed25519', public_key: wallet.publicKey };
    const first = await signedPost('/keyshare/v1/keyshare', body, { session });
    expect(first.status).toBe(200);
    const again = await signedPost('/keyshare/v1/keyshare', body, { session, headers: first.sentHeaders });
    expect(again.body).toEqual({ success: false, code: 'REQUEST_REPLAYED', msg: 'This request was already served (nonce used)' });

    // 12 copies of one signed request at once: exactly one is served.
    const once = session.signedHeaders('node-1', 'POST', '/keyshare/v1/keyshare', JSON.stringify(body));
    const racing = await Promise.all(Array.from({ length: 12 }, () => signedPost('/keyshare/v1/keyshare', body, { session, headers: once })));
    expect(racing.filter((r) => r.status === 200)).toHaveLength(1);
    expect(racing.filter((r) => r.body.code === 'REQUEST_REPLAYED')).toHaveLength(11);

    const stale = await signedPost('/keyshare/v1/keyshare', body, { session, timestamp: Date.now() - 61_000 });
    expect(stale.body).toEqual({ success: false, code: 'INVALID_REQUEST_SIGNATURE', msg: 'Request timestamp is outside the allowed window of 60 s' });
    const future = await signedPost('/keyshare/v1/keyshare', body, { session, timestamp: Date.now() + 61_000 });
    expect(future.body.code).toBe('INVALID_REQUEST_SIGNATURE');

    // Signed for node-1, sent to node-2 (a malicious node replaying a request it received).
    const retargeted = await signedPost('/keyshare/v1/keyshare', body, { session, node: 'node-2', signAs: 'node-1' });
    expect(retargeted.body.code).toBe('INVALID_REQUEST_SIGNATURE');

    // The body is not the one signed.
    const tampered = await signedPost('/keyshare/v1/keyshare', body, { session, sentBody: JSON.stringify({ ...body, public_key: randomEd25519Key() }) });
    expect(tampered.body.code).toBe('INVALID_REQUEST_SIGNATURE');

    for (const [header, value, msg] of [
      [SIGNED_REQUEST_HEADERS.nonce, 'short', 'X-KS-Nonce must be 16 to 32 random bytes in lowercase hex'],
      [SIGNED_REQUEST_HEADERS.timestamp, '12ab', 'X-KS-Timestamp must be Unix time in milliseconds'],
      [SIGNED_REQUEST_HEADERS.signature, 'zz', 'X-KS-Signature must be a 64-byte Ed25519 signature in lowercase hex'],
    ] as const) {
      const headers = session.signedHeaders('node-1', 'POST', '/keyshare/v1/keyshare', JSON.stringify(body));
      const res = await request(nodes.node('node-1').endpoint).post('/keyshare/v1/keyshare').set({ ...headers, [header]: value }).send(body);
      expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST_SIGNATURE', msg });
    }
  });

  it('refuses registering over an existing share unless the owner reshares', async () => {
    const owner = await committedSession('reshare-owner');
    const wallet = { curve: 'ed25519' as const, publicKey: randomEd25519Key() };
    await node1.register(owner, wallet, shareFor('node-1', 1));
    await expect(node1.register(owner, wallet, shareFor('node-1', 2))).rejects.toMatchObject({ status: 409, code: 'KEY_SHARE_ALREADY_EXISTS' });
    expect((await node1.fetchShare(owner, wallet)).share).toBe(shareFor('node-1', 1));

    const intruder = await committedSession('intruder');
    await expect(node1.register(intruder, wallet, shareFor('node-1', 3), { reshare: true })).rejects.toMatchObject({ status: 409, code: 'KEY_SHARE_ALREADY_EXISTS' });

    await node1.register(owner, wallet, shareFor('node-1', 4), { reshare: true });
    expect((await node1.fetchShare(owner, wallet)).share).toBe(shareFor('node-1', 4));

    // reshare with no share stored yet (the node lost its data) simply stores it.
    const fresh = { curve: 'ed25519' as const, publicKey: randomEd25519Key() };
    await node1.register(owner, fresh, shareFor('node-1', 5), { reshare: true });
    expect((await node1.fetchShare(owner, fresh)).share).toBe(shareFor('node-1', 5));
  });

  it('refuses bad input with a clear 400 and stores nothing', async () => {
    const session = await committedSession('bad-input');
    const good = { curve_type: 'ed25519', public_key: randomEd25519Key(), share: shareFor('node-1') };
    const secpPoint = '02' + '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
    const before = await rowCounts();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, curve_type: undefined }, 'curve_type is required'],
      [{ ...good, curve_type: 'p256' }, 'curve_type must be one of secp256k1, ed25519'],
      [{ ...good, public_key: undefined }, 'public_key is required'],
      [{ ...good, public_key: 'xyz' }, 'Invalid public key'],
      [{ ...good, public_key: 42 }, 'Invalid public key'],
      [{ ...good, public_key: secpPoint }, 'Invalid public key'],
      [{ ...good, curve_type: 'secp256k1', public_key: '02' + 'ff'.repeat(32) }, 'Invalid public key'],
      [{ ...good, share: undefined }, 'share is required'],
      [{ ...good, share: 'not hex' }, 'share must be 2 to 512 bytes in lowercase hex'],
      [{ ...good, share: shareFor('node-2') }, `share is not for this node (its x-coordinate must be ${sssNodeXCoordinate('node-1')})`],
      [{ ...good, reshare: 'yes' }, 'reshare must be a boolean'],
      [{ ...good, owner: 'me' }, 'Unknown field: owner'],
    ];
    for (const [body, msg] of cases) {
      const res = await signedPost('/keyshare/v1/register', JSON.parse(JSON.stringify(body)), { session });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, code: 'INVALID_REQUEST', msg } });
    }
    const fetchBad = await signedPost('/keyshare/v1/keyshare', { curve_type: 'ed25519' }, { session });
    expect(fetchBad.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'public_key is required' });
    const checkBad = await request(nodes.node('node-1').endpoint).post('/keyshare/v1/check').send({ curve_type: 'ed25519', public_key: '00' });
    expect(checkBad.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'Invalid public key' });
    expect(await rowCounts()).toEqual(before);

    // secp256k1 wallets are accepted with a valid compressed point.
    await node1.register(session, { curve: 'secp256k1', publicKey: secpPoint }, shareFor('node-1'));
    expect(await node1.check({ curve: 'secp256k1', publicKey: secpPoint })).toBe(true);
  });
});

describe('/keyshare/v1/check', () => {
  it('says whether a share exists for a wallet key, without credentials', async () => {
    expect(await node2.check({ curve: 'ed25519', publicKey: randomEd25519Key() })).toBe(false);
  });
});

describe('rate limits', () => {
  it('answers 429 RATE_LIMITED past the limit', async () => {
    const limited = await startTestNodes({ names: ['limited'], verifyIdToken: login.verifyIdToken, env: { KS_RATE_LIMIT_CHECK_PER_MINUTE: '2' } });
    try {
      const client = new KeyshareNodeClient(limited.node('limited'));
      const wallet = { curve: 'ed25519' as const, publicKey: randomEd25519Key() };
      await client.check(wallet);
      await client.check(wallet);
      const error = await client.check(wallet).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KeyshareNodeError);
      expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    } finally {
      await limited.stop();
    }
  });
});
