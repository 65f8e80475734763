import { randomUUID } from 'node:crypto';
import { startHarness, type Harness } from './support/harness.js';
import { createWalletUser } from './support/wallet-user.js';
import { post } from './support/wallet-client.js';

const SIGNOUT = '/tss/v1/user/signout';
const SILENT = '/tss/v1/user/signin_silently';
const UNAUTHORIZED = { success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' };

/*
 * Sign-out and refresh revoke service JWTs in PostgreSQL: every replica refuses them at once.
 * Two app instances on one database; a user route that needs only the JWT (session abort of an
 * unknown session: 404 when the token is accepted, 401 when it is not) tells which tokens work.
 */
describe('user sign-out and token refresh revoke the old token on every replica', () => {
  let h: Harness;
  let second: { baseUrl: string; close(): Promise<void> };
  beforeAll(async () => {
    h = await startHarness();
    second = await h.variant({});
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await h?.stop();
  });

  const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'x-api-key': h.apiKey });
  const accepted = async (baseUrl: string, token: string) => {
    const r = await post(baseUrl, '/tss/v1/session/abort', { session_id: randomUUID() }, headers(token));
    if (r.status === 404) return true;
    expect(r.body).toEqual(UNAUTHORIZED);
    return false;
  };

  it('signout revokes the token: refused on both instances, and it can no longer be refreshed', async () => {
    const u = await createWalletUser(h);
    expect(await accepted(second.baseUrl, u.token)).toBe(true);
    const out = await post(h.baseUrl, SIGNOUT, undefined, u.headers);
    expect(out.body).toEqual({ success: true, data: { message: 'Signed out' } });
    expect(await accepted(h.baseUrl, u.token)).toBe(false);
    expect(await accepted(second.baseUrl, u.token)).toBe(false);
    expect((await post(second.baseUrl, SILENT, undefined, u.headers)).body).toEqual(UNAUTHORIZED);
    expect((await post(second.baseUrl, SIGNOUT, undefined, u.headers)).body).toEqual(UNAUTHORIZED);
    // Kept until the token could no longer be refreshed anyway (exp + SIGNIN_SILENTLY_WINDOW).
    const claims = h.api.jwt.verify('user', u.token);
    if (!claims.ok) throw new Error('token does not verify');
    const row = await h.t.db.revokedToken.findUniqueOrThrow({ where: { jti: claims.claims.jti } });
    expect(row.expiresAt.getTime()).toBe((claims.claims.exp + h.config.jwt.silentRefreshWindowSeconds) * 1000);
    // A new sign-in is unaffected.
    const again = await post<{ token: string }>(h.baseUrl, '/tss/v1/user/signin', undefined, headers(u.idToken));
    expect(again.status).toBe(200);
    expect(await accepted(second.baseUrl, again.body.data!.token)).toBe(true);
  });

  it('signin_silently revokes the token it replaces; concurrent refreshes with one token on both instances give one new token', async () => {
    const u = await createWalletUser(h);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post<{ token: string }>(i % 2 ? second.baseUrl : h.baseUrl, SILENT, undefined, u.headers)));
    const fresh = answers.filter((a) => a.status === 200);
    expect(fresh).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body).toEqual(UNAUTHORIZED);
    expect(await accepted(h.baseUrl, u.token)).toBe(false);
    expect(await accepted(second.baseUrl, u.token)).toBe(false);
    const next = fresh[0]!.body.data!.token;
    expect(await accepted(second.baseUrl, next)).toBe(true);
    // The new token refreshes in turn (once).
    expect((await post(second.baseUrl, SILENT, undefined, headers(next))).status).toBe(200);
    expect((await post(h.baseUrl, SILENT, undefined, headers(next))).body).toEqual(UNAUTHORIZED);
  });
});
