import argon2 from 'argon2';
import type { ServiceClaims } from '@svc/auth';
import { startTestDatabase, type TestDatabase } from '@svc/db/testing';
import { dashboardUserRepo } from '../src/dashboard-user-repo.js';
import { checkLogin, hashPassword, verifyPassword } from '../src/password.js';
import { CREDENTIALS_VERSION_CLAIM, credentialsVersionClaim, tokenIssuedUnderCurrentCredentials } from '../src/revoked-token-repo.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(() => t.stop());

const claims = (extra: Record<string, unknown> = {}): ServiceClaims => ({
  sub: 'u',
  jti: 'j',
  aud: 'svc:customer',
  iss: 'svc-tss-wallet',
  iat: 1,
  exp: 2,
  ...extra,
});

describe('credentials version (revoking all tokens of an account at once)', () => {
  it('accepts a token only under the version it was issued with; no claim counts as version 0', () => {
    expect(credentialsVersionClaim({ credentialsVersion: 3 })).toEqual({ [CREDENTIALS_VERSION_CLAIM]: 3 });
    expect(tokenIssuedUnderCurrentCredentials(claims(credentialsVersionClaim({ credentialsVersion: 3 })), { credentialsVersion: 3 })).toBe(true);
    expect(tokenIssuedUnderCurrentCredentials(claims({ credentials_version: 2 }), { credentialsVersion: 3 })).toBe(false);
    expect(tokenIssuedUnderCurrentCredentials(claims({ credentials_version: '3' }), { credentialsVersion: 3 })).toBe(false);
    expect(tokenIssuedUnderCurrentCredentials(claims(), { credentialsVersion: 0 })).toBe(true);
    expect(tokenIssuedUnderCurrentCredentials(claims(), { credentialsVersion: 1 })).toBe(false);
  });

  it('changePassword bumps the version with the hash; setPassword (a rehash of the same password) does not', async () => {
    const customer = await t.db.customer.create({ data: { email: 'cv@example.com', label: 'CV' } });
    const users = dashboardUserRepo(t.db);
    const user = await users.create({ customerId: customer.id, email: 'cv@example.com', passwordHash: 'h0', emailVerifiedAt: new Date() });
    expect(user.credentialsVersion).toBe(0);

    await users.setPassword(user.id, 'h1', 'h0');
    expect(await users.find(user.id)).toMatchObject({ passwordHash: 'h1', credentialsVersion: 0 });
    await users.changePassword(user.id, 'h2');
    await users.changePassword(user.id, 'h3');
    expect(await users.find(user.id)).toMatchObject({ passwordHash: 'h3', credentialsVersion: 2 });
  });

  it('a sign-in rehash that read the row before a reset does not put the old password back', async () => {
    const customer = await t.db.customer.create({ data: { email: 'race@example.com', label: 'Race' } });
    const users = dashboardUserRepo(t.db);
    // Hashed with older, weaker parameters: the next sign-in rehashes it.
    const stale = await argon2.hash('old password 1', { type: argon2.argon2id, memoryCost: 8192, timeCost: 1 });
    const user = await users.create({ customerId: customer.id, email: 'race@example.com', passwordHash: stale, emailVerifiedAt: new Date() });
    const read = await users.findByEmail('race@example.com'); // sign-in reads the row,
    await users.changePassword(user.id, await hashPassword('new password 2')); // the owner's reset commits,
    await checkLogin(read, 'old password 1', (u, hash) => users.setPassword(u.id, hash, u.passwordHash)); // sign-in rehashes
    const now = await users.find(user.id);
    expect(now?.credentialsVersion).toBe(1);
    expect(await verifyPassword(now!.passwordHash, 'new password 2')).toBe(true);
    expect(await verifyPassword(now!.passwordHash, 'old password 1')).toBe(false);
  });
});
