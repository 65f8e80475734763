import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ServiceJwt } from '@svc/auth';
import request from 'supertest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { adminsRepo } from '../src/modules/admins/repo.js';
import { createAdminAccount, CreateAdminError } from '../src/modules/admins/service.js';
import { ADMIN_PASSWORD, JWT_SECRET, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const LOGIN = '/svc_admin/v1/user/login';
const LOGOUT = '/svc_admin/v1/user/logout';
const NODES = '/svc_admin/v1/ks_node/get_all_ks_nodes';

describe('admin login', () => {
  it('returns an admin JWT and the admin, and stores an argon2id hash', async () => {
    const res = await request(h.app).post(LOGIN).send({ email: 'ROOT@example.com ', password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.admin).toEqual({ admin_id: expect.any(String), email: 'root@example.com', created_at: expect.any(String) });
    const verified = h.jwt.verify('admin', res.body.data.token);
    expect(verified.ok).toBe(true);
    expect(new Date(res.body.data.expires_at).getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    const row = await h.t.db.adminUser.findUniqueOrThrow({ where: { email: 'root@example.com' } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const wrong = await request(h.app).post(LOGIN).send({ email: 'root@example.com', password: 'not the password' });
    const unknown = await request(h.app).post(LOGIN).send({ email: 'nobody@example.com', password: ADMIN_PASSWORD });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, code: 'INVALID_CREDENTIALS', msg: 'Invalid email or password' });
    }
  });

  it('spends an argon2 verify on unknown emails too (timing does not reveal accounts)', async () => {
    const time = async (email: string) => {
      const start = process.hrtime.bigint();
      await request(h.app).post(LOGIN).set('x-forwarded-for', '10.9.9.9').send({ email, password: 'wrong password x' });
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    await time('nobody2@example.com');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time('root@example.com'));
      unknown.push(await time(`ghost${i}@example.com`));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
    // Both paths hash; without the dummy verify the unknown path would take ~1 ms.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it.each([
    [{ password: 'x' }, 'email is required'],
    [{ email: 'not-an-email', password: 'x' }, 'email must be a valid email address'],
    [{ email: 'root@example.com' }, 'password is required'],
    [{ email: 'root@example.com', password: 12 }, 'password must be a string'],
    [{ email: 'root@example.com', password: 'x', extra: 1 }, 'Unknown field: extra'],
  ])('answers 400 INVALID_REQUEST for %j', async (body, msg) => {
    const res = await request(h.app).post(LOGIN).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });

  it('rate-limits attempts per IP and email (10 per 15 minutes), one count for every replica', async () => {
    // A second app instance on the same database: the counts live in PostgreSQL, not in a process.
    const replica = createApp({ config: loadConfig({ JWT_SECRET, LOG_LEVEL: 'silent', DATABASE_URL: h.t.url }), db: h.t.db }).app;
    let n = 0;
    const attempt = (ip: string, email: string) =>
      request(n++ % 2 ? replica : h.app).post(LOGIN).set('x-forwarded-for', ip).send({ email, password: 'guess guess guess' });
    for (let i = 0; i < 10; i++) expect((await attempt('10.1.1.1', 'target@example.com')).status).toBe(401);
    const limited = await attempt('10.1.1.1', 'target@example.com');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    // Another email from the same place, or the same email from elsewhere, is not blocked.
    expect((await attempt('10.1.1.1', 'other@example.com')).status).toBe(401);
    expect((await attempt('10.1.1.2', 'target@example.com')).status).toBe(401);
  });
});

describe('admin logout', () => {
  it('revokes the token until it expires: reuse answers 401', async () => {
    const login = await request(h.app).post(LOGIN).send({ email: 'root@example.com', password: ADMIN_PASSWORD });
    const token = login.body.data.token as string;
    expect((await request(h.app).post(NODES).set('authorization', `Bearer ${token}`)).status).toBe(200);

    const out = await request(h.app).post(LOGOUT).set('authorization', `Bearer ${token}`);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true, data: { message: 'Logged out' } });

    const reuse = await request(h.app).post(NODES).set('authorization', `Bearer ${token}`);
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' });
    expect((await request(h.app).post(LOGOUT).set('authorization', `Bearer ${token}`)).status).toBe(401);

    const jti = h.jwt.verify('admin', token);
    if (!jti.ok) throw new Error('token');
    const row = await h.t.db.revokedToken.findUniqueOrThrow({ where: { jti: jti.claims.jti } });
    expect(row.expiresAt.getTime()).toBe(jti.claims.exp * 1000);
    // Other sessions of the same admin are untouched.
    expect((await request(h.app).post(NODES).set('authorization', `Bearer ${h.adminToken}`)).status).toBe(200);
  });

  it('needs a token', async () => {
    expect((await request(h.app).post(LOGOUT)).status).toBe(401);
  });
});

describe('token kinds (spec §5 rule 4)', () => {
  it('refuses customer and user JWTs with 403, missing or bad tokens with 401', async () => {
    const customer = h.jwt.sign('customer', '00000000-0000-4000-8000-000000000001', { customer_id: '00000000-0000-4000-8000-000000000002' }).token;
    const user = h.jwt.sign('user', '00000000-0000-4000-8000-000000000003').token;
    const otherSecret = new ServiceJwt({ secret: 'another-secret-another-secret-another', expiresIn: '1h' }).sign('admin', 'x').token;
    const expired = new ServiceJwt({ secret: JWT_SECRET, expiresIn: -10 }).sign('admin', 'x').token;
    const cases: [string | undefined, number, string][] = [
      [customer, 403, 'FORBIDDEN'],
      [user, 403, 'FORBIDDEN'],
      [undefined, 401, 'UNAUTHORIZED'],
      ['garbage', 401, 'UNAUTHORIZED'],
      [otherSecret, 401, 'UNAUTHORIZED'],
      [expired, 401, 'UNAUTHORIZED'],
    ];
    const routes: [string, string][] = [
      ['post', LOGOUT],
      ['post', NODES],
      ['get', '/svc_admin/v1/customer/get_customer_list'],
      ['post', '/svc_admin/v1/customer/create_customer'],
      ['post', '/svc_admin/v1/tss/update_activation_setting'],
    ];
    for (const [method, path] of routes) {
      for (const [token, status, code] of cases) {
        let req = method === 'get' ? request(h.app).get(path) : request(h.app).post(path);
        if (token) req = req.set('authorization', `Bearer ${token}`);
        const res = await req;
        expect([path, token?.slice(0, 8), res.status, res.body.code]).toEqual([path, token?.slice(0, 8), status, code]);
      }
    }
  });
});

describe('a password rehash at login', () => {
  it('is no error for an account deleted since login read it: 0 rows, not a 500', async () => {
    const gone = randomUUID();
    await expect(adminsRepo(h.t.db).setPassword(gone, 'hash', 'previous hash')).resolves.toBeUndefined();
    expect(await h.t.db.adminUser.count({ where: { id: gone } })).toBe(0);
  });

  it('leaves a password set since login read the row as it is', async () => {
    const admin = await adminsRepo(h.t.db).insert(`rehash-${randomUUID()}@example.com`, 'hash read at login');
    await h.t.db.adminUser.update({ where: { id: admin.id }, data: { passwordHash: 'hash set since' } });
    await adminsRepo(h.t.db).setPassword(admin.id, 'rehash of the old password', 'hash read at login');
    expect(await h.t.db.adminUser.findUnique({ where: { id: admin.id } })).toMatchObject({ passwordHash: 'hash set since' });
  });
});

describe('pnpm admin:create', () => {
  it('creates an admin with the password policy, never twice', async () => {
    await expect(createAdminAccount(adminsRepo(h.t.db), 'short@example.com', 'short')).rejects.toThrow(CreateAdminError);
    await expect(createAdminAccount(adminsRepo(h.t.db), 'bad-email', ADMIN_PASSWORD)).rejects.toThrow('email must be a valid email address');
    await expect(createAdminAccount(adminsRepo(h.t.db), 'Root@Example.com', ADMIN_PASSWORD)).rejects.toThrow('already exists');
  });

  it('runs as a command against DATABASE_URL, password from stdin', async () => {
    const cli = fileURLToPath(new URL('../src/cli/create-admin.ts', import.meta.url));
    const run = (args: string[], env: Record<string, string>, input?: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', cli, ...args],
          { env: { PATH: process.env.PATH ?? '', DATABASE_URL: h.t.url, ...env } },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
        child.stdin?.end(input ?? '');
      });
    const ok = await run(['--email', 'ops@example.com', '--password-stdin'], {}, 'ops password 123\n');
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('Created admin ops@example.com');
    const login = await request(h.app).post(LOGIN).send({ email: 'ops@example.com', password: 'ops password 123' });
    expect(login.status).toBe(200);

    const viaEnv = await run([], { ADMIN_EMAIL: 'env@example.com', ADMIN_PASSWORD: 'env password 123' });
    expect(viaEnv.code).toBe(0);
    const again = await run([], { ADMIN_EMAIL: 'env@example.com', ADMIN_PASSWORD: 'env password 123' });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    const noPassword = await run(['--email', 'x@example.com'], {});
    expect(noPassword.code).toBe(2);
    const weak = await run(['--email', 'x@example.com', '--password-stdin'], {}, 'short');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('password must be 10 to 128 characters');
    expect(await h.t.db.adminUser.count({ where: { email: 'x@example.com' } })).toBe(0);
  }, 60_000);

});

describe('configuration', () => {
  it('fails fast on a bad configuration', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short', JWT_EXPIRES_IN: 'soon', PORT: 'x' })).toThrow(
      /JWT_EXPIRES_IN must be seconds[\s\S]*PORT must be an integer[\s\S]*JWT_SECRET must be at least 32/,
    );
    expect(loadConfig({ JWT_SECRET }).port).toBe(4220);
    expect(loadConfig({ JWT_SECRET }).jwtExpiresIn).toBe(3600);
    // Spec §5/§8 write the lifetime "1H": units in either case.
    expect(loadConfig({ JWT_SECRET, JWT_EXPIRES_IN: '1H' }).jwtExpiresIn).toBe(3600);
    expect(loadConfig({ JWT_SECRET, JWT_EXPIRES_IN: '90M' }).jwtExpiresIn).toBe(5400);
  });

  it('serves /ready when the database answers', async () => {
    const res = await request(h.app).get('/ready');
    expect(res.body).toEqual({ success: true, data: { status: 'ready' } });
    void createApp;
  });
});
