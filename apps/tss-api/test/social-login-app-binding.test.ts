import { toHex } from '@svc/crypto';
import { generateShareKey } from '@svc/share-cipher';
import { loadConfig } from '../src/env.js';
import { JWT_SECRET, startHarness, type Harness } from './support/harness.js';
import { ed25519KeygenBody, newEd25519Key, post } from './support/wallet-client.js';

/*
 * X and Discord logins take bare OAuth access tokens. A token proves who the person is, but not
 * that they signed in to THIS app: the operator of any other app they authorised holds such
 * tokens too. Discord says which application a token was issued to, so only ours count; X does
 * not, so X login starts only when the operator accepts that risk by name (docs/auth.md).
 */

const UNAUTHORIZED = { success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' };
/** Another Discord application, whose operator holds a token of our user. */
const FOREIGN_DISCORD_APP = '999000000000000001';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

describe('Discord tokens are accepted only when issued to our application', () => {
  it('another application\'s token of a user with a wallet: 401 at sign-in, seed parts and keygen; ours signs in', async () => {
    const discordId = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const person = { id: discordId, email: `d-${discordId}@example.com`, verified: true };
    h.social.addDiscordUser(`dtok-ours-${discordId}`, person);
    const key = await newEd25519Key();
    const ours = { authorization: `Bearer discord:dtok-ours-${discordId}`, 'x-api-key': h.apiKey };
    const created = await post<{ user: { wallet_id: string } }>(h.baseUrl, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(key) }, ours);
    expect(created.status).toBe(200);

    // The same person's live token, issued to another Discord application.
    h.social.addDiscordUser(`dtok-foreign-${discordId}`, person, { applicationId: FOREIGN_DISCORD_APP });
    const foreign = { authorization: `Bearer discord:dtok-foreign-${discordId}`, 'x-api-key': h.apiKey };
    const signin = await post(h.baseUrl, '/tss/v1/user/signin', undefined, foreign);
    expect({ status: signin.status, body: signin.body }).toEqual({ status: 401, body: UNAUTHORIZED });
    const seedParts = await post(h.baseUrl, '/tss/v1/user/seed_parts', undefined, foreign);
    expect({ status: seedParts.status, body: seedParts.body }).toEqual({ status: 401, body: UNAUTHORIZED });
    const keygen = await post(h.baseUrl, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(await newEd25519Key()) }, foreign);
    expect({ status: keygen.status, body: keygen.body }).toEqual({ status: 401, body: UNAUTHORIZED });

    // A fresh token of ours for the same person still works everywhere.
    h.social.addDiscordUser(`dtok-ours-again-${discordId}`, person);
    const again = { authorization: `Bearer discord:dtok-ours-again-${discordId}`, 'x-api-key': h.apiKey };
    const ok = await post<{ user: { wallet_id: string } }>(h.baseUrl, '/tss/v1/user/signin', undefined, again);
    expect(ok.status).toBe(200);
    expect(ok.body.data!.user.wallet_id).toBe(created.body.data!.user.wallet_id);
    const parts = await post<{ wallets: { seed_part: string }[] }>(h.baseUrl, '/tss/v1/user/seed_parts', undefined, again);
    expect(parts.body.data!.wallets.map((w) => w.seed_part)).toEqual([toHex(key.serverSeedPart)]);
  });
});

describe('start-up configuration of Discord and X login', () => {
  const base = { JWT_SECRET, SHARE_ENCRYPTION_KEYS: generateShareKey('k1'), LOG_LEVEL: 'silent' };

  it('Discord login does not start without DISCORD_CLIENT_ID', () => {
    expect(() => loadConfig({ ...base, DISCORD_LOGIN_ENABLED: 'true' })).toThrow(/DISCORD_CLIENT_ID is required when DISCORD_LOGIN_ENABLED is true/);
    expect(loadConfig({ ...base, DISCORD_LOGIN_ENABLED: 'true', DISCORD_CLIENT_ID: '1160000000000000001' }).providers.discord?.clientIds).toEqual(['1160000000000000001']);
  });

  it('X login does not start unless X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS=true accepts tokens of other X apps', () => {
    expect(() => loadConfig({ ...base, X_LOGIN_ENABLED: 'true' })).toThrow(/X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS=true/);
    expect(() => loadConfig({ ...base, X_LOGIN_ENABLED: 'true', X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS: 'false' })).toThrow(/X cannot tell which app/);
    expect(loadConfig({ ...base, X_LOGIN_ENABLED: 'true', X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS: 'true' }).providers.x).toMatchObject({ acceptForeignAppTokens: true });
  });
});
