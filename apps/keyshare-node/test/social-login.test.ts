import { createIdTokenVerifier } from '@svc/auth';
import { startSocialUserInfoServer, type SocialUserInfoServer } from '@svc/auth/testing';
import { sssNodeXCoordinate, toHex } from '@svc/crypto';
import { IdTokenSession, KeyshareNodeClient } from '@svc/keyshare-client';
import { generateShareKey } from '@svc/share-cipher';
import { loadConfig } from '../src/env.js';
import { startTestNodes, type TestNodes } from '../src/testing.js';
import { randomEd25519Key } from './support/fixtures.js';

/*
 * A node takes `discord:<access token>` as an ID token. Committing a token proves only that the
 * committer holds it; the operator of another Discord application the user authorised holds
 * such tokens too, so the node must accept only tokens issued to our application (docs/auth.md).
 */

/** Another Discord application, whose operator holds a token of our user. */
const FOREIGN_DISCORD_APP = '999000000000000001';

let social: SocialUserInfoServer;
let nodes: TestNodes;
let node: KeyshareNodeClient;

beforeAll(async () => {
  social = await startSocialUserInfoServer();
  // Providers read like production: from the variables, through readSocialProviders.
  const env = { DISCORD_LOGIN_ENABLED: 'true', DISCORD_API_BASE_URL: social.baseUrl, DISCORD_CLIENT_ID: social.discordClientId, EMAIL_LOGIN_ENABLED: 'false' };
  const verifier = createIdTokenVerifier(loadConfig({ KS_NODE_NAME: 'node-1', SHARE_ENCRYPTION_KEYS: generateShareKey('k1'), ...env }).providers);
  nodes = await startTestNodes({ names: ['node-1'], verifyIdToken: (token) => verifier.verifyIdToken(token), env });
  node = new KeyshareNodeClient(nodes.node('node-1'));
});
afterAll(async () => {
  await nodes.stop();
  await social.close();
});

describe('Discord ID tokens at a key share node', () => {
  it("serves the user's share for a token of our application, never for another application's token", async () => {
    const person = { id: '880000000000000001', email: 'victim@example.com', verified: true };
    social.addDiscordUser('dtok-ours-victim', person);
    const session = IdTokenSession.create('discord:dtok-ours-victim');
    await node.commit(session);
    const wallet = { curve: 'ed25519' as const, publicKey: randomEd25519Key() };
    const share = toHex(Uint8Array.from([...new Array(33).fill(9), sssNodeXCoordinate('node-1')]));
    await node.register(session, wallet, share);
    expect(await node.fetchShare(session, wallet)).toEqual({ share_id: expect.any(String), share });

    // The other application's operator commits the token it holds (the commit checks no token)
    // and asks for the share with properly signed requests: refused as an invalid token.
    social.addDiscordUser('dtok-foreign-victim', person, { applicationId: FOREIGN_DISCORD_APP });
    const attacker = IdTokenSession.create('discord:dtok-foreign-victim');
    await node.commit(attacker);
    await expect(node.fetchShare(attacker, wallet)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    await expect(node.register(attacker, { curve: 'ed25519', publicKey: randomEd25519Key() }, share)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('does not start with Discord login but no DISCORD_CLIENT_ID, nor with X login without accepting tokens of other X apps', () => {
    const base = { KS_NODE_NAME: 'node-1', SHARE_ENCRYPTION_KEYS: generateShareKey('k1') };
    expect(() => loadConfig({ ...base, DISCORD_LOGIN_ENABLED: 'true' })).toThrow(/DISCORD_CLIENT_ID is required/);
    expect(() => loadConfig({ ...base, X_LOGIN_ENABLED: 'true' })).toThrow(/X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS=true/);
  });
});
