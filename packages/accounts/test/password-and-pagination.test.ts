import express from 'express';
import request from 'supertest';
import { createServiceApp, createLogger, defineRoute } from '@svc/http';
import { checkLogin, hashPassword, newPasswordField, verifyPassword } from '../src/password.js';
import { offsetPageFields, readOffsetPage } from '../src/pagination.js';

describe('passwords', () => {
  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword('a long enough password');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(hash, 'a long enough password')).toBe(true);
    expect(await verifyPassword(hash, 'another password')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
    expect(await verifyPassword(null, 'x')).toBe(false);
  });

  it('rehashes on login when the stored hash used weaker parameters', async () => {
    const argon2 = (await import('argon2')).default;
    const weak = await argon2.hash('old password 123', { type: argon2.argon2id, memoryCost: 4096, timeCost: 1 });
    const saved: string[] = [];
    const account = await checkLogin({ passwordHash: weak }, 'old password 123', async (_a, h) => saved.push(h));
    expect(account).not.toBeNull();
    expect(saved[0]).toMatch(/m=19456,t=2,p=1/);
    expect(await checkLogin(null, 'x', async () => undefined)).toBeNull();
  });
});

describe('request rules', () => {
  const app = createServiceApp({
    name: 't',
    logger: createLogger('t', 'silent'),
    routes: [
      defineRoute({ method: 'post', path: '/b', summary: 'b', body: { ...offsetPageFields(), password: newPasswordField().optional() }, handler: (req) => readOffsetPage(req.body) }),
      defineRoute({ method: 'get', path: '/q', summary: 'q', query: offsetPageFields(), handler: (req) => readOffsetPage(req.query as Record<string, unknown>) }),
    ],
  }).app;
  void express;

  it.each([
    [{}, 200, { limit: 20, offset: 0 }],
    [{ limit: 100, offset: 100000 }, 200, { limit: 100, offset: 100000 }],
    [{ limit: 0 }, 400, 'limit must be an integer between 1 and 100'],
    [{ limit: 101 }, 400, 'limit must be an integer between 1 and 100'],
    [{ limit: 1.5 }, 400, 'limit must be an integer between 1 and 100'],
    [{ limit: '5' }, 400, 'limit must be an integer between 1 and 100'],
    [{ offset: -1 }, 400, 'offset must be an integer between 0 and 100000'],
    [{ offset: 100001 }, 400, 'offset must be an integer between 0 and 100000'],
    [{ password: 'short' }, 400, 'password must be 10 to 128 characters'],
    [{ password: 'x'.repeat(129) }, 400, 'password must be 10 to 128 characters'],
  ])('body %j -> %i', async (body, status, expected) => {
    const res = await request(app).post('/b').send(body);
    expect(res.status).toBe(status);
    expect(status === 200 ? res.body.data : res.body.msg).toEqual(expected);
  });

  it('reads query pages and refuses out-of-range ones', async () => {
    expect((await request(app).get('/q?limit=5&offset=10')).body.data).toEqual({ limit: 5, offset: 10 });
    expect((await request(app).get('/q?limit=500')).body.msg).toBe('limit must be an integer between 1 and 100');
    expect((await request(app).get('/q?offset=abc')).status).toBe(400);
  });
});
