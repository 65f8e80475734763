import request from 'supertest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { createIdTokenVerifier } from '@svc/auth';
import { lastCharRespellings, respelledSignatures, startOidcIssuer, telegramLoginToken, type LocalOidcIssuer } from '@svc/auth/testing';
import { sssNodeXCoordinate, toHex } from '@svc/crypto';
import {
  canonicalRequest,
  IdTokenSession,
  idTokenCommitKey,
  KEYSHARE_PATHS,
  KeyshareNodeClient,
  sha256Hex,
  SIGNED_REQUEST_HEADERS,
  type WalletRef,
} from '@svc/keyshare-client';
import { startTestNodes, type TestNodes } from '../src/testing.js';
import { randomEd25519Key } from './support/fixtures.js';

/*
 * One ID token, many spellings (docs/keyshare.md, "What a commit is keyed on"). The main server
 * sees a victim's token after the victim committed it; here it re-spells the token, commits the
 * re-spelling to a key of its own, and asks for the victim's share with it. Each spelling below
 * is first shown to verify (the attack's premise), then to get nothing at the node. Real
 * issuers (RS256 and ES256 on loopback), real Telegram hashes, a real node and database.
 */

const BOT_TOKEN = '123456:test-bot-token-for-respelling';
/** Order of P-256's group: an ES256 signature (r, s) also verifies as (r, n - s). */
const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

let rs256: LocalOidcIssuer;
let es256: LocalOidcIssuer;
let verifyIdToken: (token: string) => ReturnType<ReturnType<typeof createIdTokenVerifier>['verifyIdToken']>;
let nodes: TestNodes;
let client: KeyshareNodeClient;

beforeAll(async () => {
  rs256 = await startOidcIssuer();
  es256 = await startOidcIssuer({ alg: 'ES256' });
  const verifier = createIdTokenVerifier({
    google: { issuer: rs256.issuer, audience: rs256.audience, jwksUri: rs256.jwksUri },
    apple: { issuer: es256.issuer, audience: es256.audience, jwksUri: es256.jwksUri },
    telegram: { botToken: BOT_TOKEN },
  });
  verifyIdToken = (token) => verifier.verifyIdToken(token);
  // Limits above what these tests send (some 60 commits from one address).
  const env = Object.fromEntries(['GLOBAL', 'COMMIT', 'KEYSHARE'].map((n) => [`KS_RATE_LIMIT_${n}_PER_MINUTE`, '5000']));
  nodes = await startTestNodes({ names: ['node-1'], verifyIdToken, env });
  client = new KeyshareNodeClient(nodes.node('node-1'));
}, 120_000);
afterAll(async () => {
  await nodes.stop();
  await rs256.close();
  await es256.close();
});

/** An ES256 JWT with its signature (r, s) replaced by (r, n - s): another valid signature. */
function es256Malleated(token: string): string {
  const cut = token.lastIndexOf('.');
  const sig = Buffer.from(token.slice(cut + 1), 'base64url');
  const s = BigInt(`0x${sig.subarray(32).toString('hex')}`);
  const flipped = Buffer.concat([sig.subarray(0, 32), Buffer.from((P256_N - s).toString(16).padStart(64, '0'), 'hex')]);
  return `${token.slice(0, cut + 1)}${flipped.toString('base64url')}`;
}

const telegramData = (token: string) => JSON.parse(Buffer.from(token.slice('telegram:'.length), 'base64url').toString('utf8')) as Record<string, string | number>;

const shareOfNode1 = (fill: number) => toHex(Uint8Array.from([...new Array(33).fill(fill), sssNodeXCoordinate('node-1')]));

/** The victim signs in: commits its token first, then registers its node share. */
async function victimWithShare(token: string): Promise<{ session: IdTokenSession; wallet: WalletRef; share: string }> {
  const session = IdTokenSession.create(token);
  await client.commit(session);
  const wallet: WalletRef = { curve: 'ed25519', publicKey: randomEd25519Key() };
  const share = shareOfNode1(Math.floor(Math.random() * 200) + 1);
  await client.register(session, wallet, share);
  return { session, wallet, share };
}

const commitRaw = (idTokenHash: string, sessionPublicKey: string) =>
  request(nodes.node('node-1').endpoint).post(KEYSHARE_PATHS.commit).send({ id_token_hash: idTokenHash, session_public_key: sessionPublicKey });

/** POST /keyshare/v1/keyshare with `token` as Bearer, signed by hand with `secretKey` (any spelling, no client-side checks). */
function fetchShareSigned(token: string, secretKey: Uint8Array, wallet: WalletRef) {
  const text = JSON.stringify({ curve_type: wallet.curve, public_key: wallet.publicKey });
  const timestamp = String(Date.now());
  const nonce = toHex(randomBytes(16));
  const path = KEYSHARE_PATHS.keyshare;
  const message = canonicalRequest({ nodeName: 'node-1', method: 'POST', path, timestamp, nonce, idTokenHash: sha256Hex(token), bodySha256: sha256Hex(text) });
  return request(nodes.node('node-1').endpoint)
    .post(path)
    .set({
      authorization: `Bearer ${token}`,
      [SIGNED_REQUEST_HEADERS.timestamp]: timestamp,
      [SIGNED_REQUEST_HEADERS.nonce]: nonce,
      [SIGNED_REQUEST_HEADERS.signature]: toHex(ed25519.sign(utf8ToBytes(message), secretKey)),
      'content-type': 'application/json',
    })
    .send(text);
}

/**
 * The main server's attack with one re-spelling: commit SHA-256 of the re-spelled string (what
 * the node used to key commits on) to its own key, then fetch the victim's share signed by that
 * key. Returns the fetch's answer.
 */
async function attackWith(respelled: string, wallet: WalletRef) {
  const thiefKey = ed25519.utils.randomSecretKey();
  const thiefPublicKey = toHex(ed25519.getPublicKey(thiefKey));
  // The node cannot tell what a bare hash names; this row is stored, and no lookup ever finds it.
  expect((await commitRaw(sha256Hex(respelled), thiefPublicKey)).status).toBe(200);
  const fetched = await fetchShareSigned(respelled, thiefKey, wallet);
  return { thiefPublicKey, fetched: { status: fetched.status, body: fetched.body as unknown } };
}

const UNAUTHORIZED = { status: 401, body: { success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' } };
const WRONG_KEY = {
  status: 401,
  body: { success: false, code: 'INVALID_REQUEST_SIGNATURE', msg: 'Request signature does not verify with the committed session key' },
};
const COMMITTED_TO_OTHER = { success: false, code: 'ID_TOKEN_COMMITTED_TO_OTHER_KEY', msg: 'This ID token is already committed to another session key' };

describe('a re-spelled ID token gets nothing at a key share node', () => {
  it.each([
    ['RS256', () => rs256],
    ['ES256', () => es256],
  ])('%s: every other last character of the signature (same signature bytes) is refused outright', async (_alg, issuer) => {
    const sub = `victim-last-char-${Math.random()}`;
    const token = await issuer().issue({ sub });
    const victim = await victimWithShare(token);
    const respellings = respelledSignatures(token);
    // RS256 (256 bytes) and ES256 (64 bytes) both leave 4 unused bits in the last character.
    expect(respellings).toHaveLength(15);

    for (const respelled of respellings) {
      // The premise: the provider's verifier accepts the re-spelling as the victim's token.
      await expect(verifyIdToken(respelled)).resolves.toMatchObject({ subject: sub });
      const { thiefPublicKey, fetched } = await attackWith(respelled, victim.wallet);
      expect({ respelled, fetched }).toEqual({ respelled, fetched: UNAUTHORIZED });
      // Committing the token's real commit key (what every spelling maps to) to its key: refused.
      const recommit = await commitRaw(idTokenCommitKey(token), thiefPublicKey);
      expect({ status: recommit.status, body: recommit.body }).toEqual({ status: 401, body: COMMITTED_TO_OTHER });
    }

    // The victim is unaffected: its token and session still fetch its share.
    expect(await client.fetchShare(victim.session, victim.wallet)).toEqual({ share_id: expect.any(String), share: victim.share });
  });

  it('ES256: the malleated signature (r, n - s) is the same token, bound to the victim\'s key', async () => {
    const sub = `victim-malleated-${Math.random()}`;
    const token = await es256.issue({ sub });
    const victim = await victimWithShare(token);
    const malleated = es256Malleated(token);
    expect(malleated).not.toBe(token);
    await expect(verifyIdToken(malleated)).resolves.toMatchObject({ subject: sub });

    // Through the client library, as an honest-looking session of the thief's own: the commit is
    // refused (same commit key as the victim's), and the thief's signature does not count.
    const thief = IdTokenSession.create(malleated);
    expect(thief.commitKey).toBe(victim.session.commitKey);
    await expect(client.commit(thief)).rejects.toMatchObject({ status: 401, code: 'ID_TOKEN_COMMITTED_TO_OTHER_KEY' });
    await expect(client.fetchShare(thief, victim.wallet)).rejects.toMatchObject({ status: 401, code: 'INVALID_REQUEST_SIGNATURE' });

    // By hand, with the raw string's hash committed to the thief's key first.
    expect((await attackWith(malleated, victim.wallet)).fetched).toEqual(WRONG_KEY);

    expect(await client.fetchShare(victim.session, victim.wallet)).toEqual({ share_id: expect.any(String), share: victim.share });
  });

  it('Telegram: the login data re-encoded (key order, whitespace, numbers as strings) or re-spelled in base64url', async () => {
    // A username for which the base64url of the login JSON ends with unused bits, so it has re-spellings too.
    const encodedLength = (t: string) => t.length - 'telegram:'.length;
    let token = telegramLoginToken(BOT_TOKEN, { id: 700_000, username: 'victim' });
    for (let i = 1; encodedLength(token) % 4 === 0 && i < 4; i++) token = telegramLoginToken(BOT_TOKEN, { id: 700_000 + i, username: `victim${'x'.repeat(i)}` });
    expect(encodedLength(token) % 4).not.toBe(0);
    const data = telegramData(token);
    const victim = await victimWithShare(token);

    const reversed = Object.fromEntries(Object.entries(data).reverse());
    const asStrings = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]));
    const reEncoded = [
      `telegram:${Buffer.from(JSON.stringify(reversed, null, 2)).toString('base64url')}`,
      `telegram:${Buffer.from(` ${JSON.stringify(asStrings)}\n`).toString('base64url')}`,
    ];
    const respelled = lastCharRespellings(token.slice('telegram:'.length)).map((s) => `telegram:${s}`);
    expect(respelled.length).toBeGreaterThan(0);

    for (const spelling of [...reEncoded, ...respelled]) {
      expect(spelling).not.toBe(token);
      await expect(verifyIdToken(spelling)).resolves.toMatchObject({ authType: 'TELEGRAM', subject: String(data.id) });
    }
    for (const spelling of reEncoded) {
      // Canonical JSON spellings: one commit key with the victim's token, so the victim's key decides.
      expect(idTokenCommitKey(spelling)).toBe(victim.session.commitKey);
      const { thiefPublicKey, fetched } = await attackWith(spelling, victim.wallet);
      expect({ spelling, fetched }).toEqual({ spelling, fetched: WRONG_KEY });
      const recommit = await commitRaw(idTokenCommitKey(spelling), thiefPublicKey);
      expect(recommit.body).toEqual(COMMITTED_TO_OTHER);
    }
    for (const spelling of respelled) {
      expect({ spelling, fetched: (await attackWith(spelling, victim.wallet)).fetched }).toEqual({ spelling, fetched: UNAUTHORIZED });
    }

    expect(await client.fetchShare(victim.session, victim.wallet)).toEqual({ share_id: expect.any(String), share: victim.share });
  });

  it('the honest flow: a fresh token of the same person is a new commit, and its owner registers and fetches with it', async () => {
    const sub = `honest-${Math.random()}`;
    const first = await victimWithShare(await rs256.issue({ sub }));
    // A later sign-in: another token (iat, jti differ), committed to a new session key.
    const second = IdTokenSession.create(await rs256.issue({ sub }));
    expect(second.commitKey).not.toBe(first.session.commitKey);
    await client.commit(second);
    await client.commit(second);
    expect(await client.fetchShare(second, first.wallet)).toEqual({ share_id: expect.any(String), share: first.share });
    const row = await nodes.node('node-1').db.idTokenCommit.findUnique({ where: { tokenHash: second.commitKey } });
    expect(row?.sessionPublicKey).toBe(second.sessionPublicKey);
  });
});
