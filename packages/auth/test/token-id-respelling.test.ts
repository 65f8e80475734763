import { createIdTokenVerifier } from '../src/index.js';
import { lastCharRespellings, respelledSignatures, startOidcIssuer, telegramLoginToken, type LocalOidcIssuer } from '../src/testing/index.js';

/*
 * VerifiedIdentity.tokenId names one token for replay records (tss-api's witnessed_id_tokens,
 * apps/tss-api/src/kernel/id-token-witness.ts). One token has many spellings that verify: a
 * JWT's signature with another last base64url character (the unused low bits are ignored),
 * ES256's (r, n - s), Telegram's login JSON re-encoded. Were tokenId a digest of the raw string,
 * each spelling would count as a token never used, and a replay would pass. It is built from what
 * the provider signed (a JWT's `header.payload`, Telegram's verified hash), so every spelling has
 * the one tokenId; the key share nodes key their commits on the same notion
 * (idTokenCommitKey of @svc/keyshare-client, docs/keyshare.md).
 */

const BOT_TOKEN = '4242:token-id-respelling';
const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

let rs256: LocalOidcIssuer;
let es256: LocalOidcIssuer;
let verifier: ReturnType<typeof createIdTokenVerifier>;

beforeAll(async () => {
  rs256 = await startOidcIssuer();
  es256 = await startOidcIssuer({ alg: 'ES256' });
  verifier = createIdTokenVerifier({
    google: { issuer: rs256.issuer, audience: rs256.audience, jwksUri: rs256.jwksUri },
    apple: { issuer: es256.issuer, audience: es256.audience, jwksUri: es256.jwksUri },
    telegram: { botToken: BOT_TOKEN },
  });
});
afterAll(async () => {
  await rs256.close();
  await es256.close();
});

describe('tokenId is the same for every spelling of one token, and differs between tokens', () => {
  it.each([
    ['RS256', () => rs256],
    ['ES256', () => es256],
  ])('%s: the signature with another last character', async (_alg, issuer) => {
    const token = await issuer().issue({ sub: 'replayer' });
    const { tokenId } = await verifier.verifyIdToken(token);
    const respellings = respelledSignatures(token);
    expect(respellings).toHaveLength(15);
    for (const respelled of respellings) expect(await verifier.verifyIdToken(respelled)).toMatchObject({ subject: 'replayer', tokenId });
    // A second token of the same person is another token.
    expect((await verifier.verifyIdToken(await issuer().issue({ sub: 'replayer' }))).tokenId).not.toBe(tokenId);
  });

  it('ES256: the malleated signature (r, n - s)', async () => {
    const token = await es256.issue({ sub: 'malleator' });
    const cut = token.lastIndexOf('.');
    const sig = Buffer.from(token.slice(cut + 1), 'base64url');
    const s = BigInt(`0x${sig.subarray(32).toString('hex')}`);
    const flipped = Buffer.concat([sig.subarray(0, 32), Buffer.from((P256_N - s).toString(16).padStart(64, '0'), 'hex')]);
    const malleated = `${token.slice(0, cut + 1)}${flipped.toString('base64url')}`;
    expect(malleated).not.toBe(token);
    expect((await verifier.verifyIdToken(malleated)).tokenId).toBe((await verifier.verifyIdToken(token)).tokenId);
  });

  it('Telegram: the login JSON re-encoded or its base64url re-spelled', async () => {
    const token = telegramLoginToken(BOT_TOKEN, { id: 31337, username: 'replayer' });
    const data = JSON.parse(Buffer.from(token.slice('telegram:'.length), 'base64url').toString('utf8')) as Record<string, unknown>;
    const { tokenId } = await verifier.verifyIdToken(token);
    const spellings = [
      `telegram:${Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(data).reverse()), null, 2)).toString('base64url')}`,
      `telegram:${Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])))).toString('base64url')}`,
      ...lastCharRespellings(token.slice('telegram:'.length)).map((s) => `telegram:${s}`),
    ];
    for (const spelling of spellings) expect(await verifier.verifyIdToken(spelling)).toMatchObject({ subject: '31337', tokenId });
    const later = telegramLoginToken(BOT_TOKEN, { id: 31337, username: 'replayer' }, Math.floor(Date.now() / 1000) - 100);
    expect((await verifier.verifyIdToken(later)).tokenId).not.toBe(tokenId);
  });
});
