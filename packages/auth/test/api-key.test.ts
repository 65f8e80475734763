import express from 'express';
import request from 'supertest';
import { errorHandler } from '@svc/envelope';
import { apiKeyGuard, hashApiKey, issueApiKey } from '../src/index.js';

describe('API keys', () => {
  const live = issueApiKey();
  const revoked = issueApiKey();
  const app = express();
  const guard = apiKeyGuard(async (hash) => (hash === live.hash ? { apiKeyId: 'k1', customerId: 'c1' } : null));
  app.get('/x', guard.middleware, (_req, res) => void res.json(res.locals.apiKey));
  app.use(errorHandler({ error: () => undefined }));

  it('issues distinct 256-bit keys stored only as their hash', () => {
    expect(live.key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(live.hash).toBe(hashApiKey(live.key));
    expect(live.hash).not.toContain(live.key.slice(4));
    expect(issueApiKey().key).not.toBe(live.key);
  });

  it('lets a live key through and names its owner', async () => {
    const res = await request(app).get('/x').set('X-API-Key', live.key);
    expect(res.body).toEqual({ apiKeyId: 'k1', customerId: 'c1' });
  });

  it.each([
    ['missing', undefined],
    ['unknown or revoked', revoked.key],
    ['malformed', 'svc_short'],
  ])('refuses a %s key with 401', async (_name, key) => {
    const req = request(app).get('/x');
    const res = await (key ? req.set('X-API-Key', key) : req);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, code: 'INVALID_API_KEY', msg: 'Invalid API key' });
  });

  describe('allowed origins', () => {
    const limited = issueApiKey();
    const originApp = express();
    const owners = new Map([
      [live.hash, { apiKeyId: 'k1', customerId: 'c1' }],
      [limited.hash, { apiKeyId: 'k2', customerId: 'c1', allowedOrigins: ['https://app.example.com'] }],
    ]);
    // As the CORS middleware of @svc/http does before any route: the request's origin reflected.
    originApp.use((req, res, next) => {
      if (req.get('origin')) res.set('Access-Control-Allow-Origin', req.get('origin'));
      next();
    });
    originApp.get('/x', apiKeyGuard(async (hash) => owners.get(hash) ?? null).middleware, (_req, res) => void res.json(res.locals.apiKey));
    originApp.use(errorHandler({ error: () => undefined }));

    it('lets a listed origin through with its Access-Control-Allow-Origin', async () => {
      const res = await request(originApp).get('/x').set('X-API-Key', limited.key).set('Origin', 'https://app.example.com');
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    });

    it.each(['https://evil.example', 'http://app.example.com', 'https://app.example.com:8443', 'null'])('refuses origin %s with 403 and no Access-Control-Allow-Origin', async (origin) => {
      const res = await request(originApp).get('/x').set('X-API-Key', limited.key).set('Origin', origin);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, code: 'ORIGIN_NOT_ALLOWED', msg: 'Origin not allowed for this API key' });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('does not apply to requests without Origin, nor to keys without origins', async () => {
      expect((await request(originApp).get('/x').set('X-API-Key', limited.key)).status).toBe(200);
      const any = await request(originApp).get('/x').set('X-API-Key', live.key).set('Origin', 'https://evil.example');
      expect(any.status).toBe(200);
      expect(any.headers['access-control-allow-origin']).toBe('https://evil.example');
    });
  });
});
