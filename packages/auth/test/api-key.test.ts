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
});
