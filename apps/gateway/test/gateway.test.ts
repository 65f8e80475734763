import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { createLogger, listen, type RunningServer } from '@svc/http';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';

const logger = createLogger('gateway-test', 'silent');

/** A real HTTP upstream that echoes what it received. */
async function startUpstream(): Promise<RunningServer> {
  const app = express();
  app.use(express.json());
  app.all('/{*rest}', (req, res) => {
    if (req.path.endsWith('/slow')) return void setTimeout(() => res.json({ late: true }), 800);
    if (req.path === '/docs/openapi.json') return void res.json({ openapi: '3.1.0', info: { title: 'up' } });
    // As tss-api answers an API key's origins: the allowed one reflected, any other refused without it.
    if (req.path === '/tss/v1/origin-checked') {
      if (req.get('origin') !== 'https://wallet.example') return void res.status(403).json({ success: false, code: 'ORIGIN_NOT_ALLOWED', msg: 'Origin not allowed for this API key' });
      res.set({ 'access-control-allow-origin': 'https://wallet.example', 'access-control-expose-headers': 'X-Request-Id' });
    }
    res.json({ success: true, data: { path: req.originalUrl, body: req.body, requestId: req.get('x-request-id') } });
  });
  return listen(app, 0, '127.0.0.1');
}

describe('gateway', () => {
  let upstream: RunningServer;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(() => upstream.close());

  function gateway(overrides: Record<string, string> = {}) {
    const url = `http://127.0.0.1:${upstream.port}`;
    const config = loadConfig({ TSS_API_URL: url, ADMIN_API_URL: url, DASHBOARD_API_URL: 'http://127.0.0.1:1', ...overrides });
    return createApp({ config, logger }).app;
  }

  it('forwards each prefix with path, body and request id unchanged', async () => {
    const app = gateway();
    const res = await request(app).post('/tss/v1/user/check?x=1').set('x-request-id', 'abc-1').send({ email: 'a@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ path: '/tss/v1/user/check?x=1', body: { email: 'a@example.com' }, requestId: 'abc-1' });
    const admin = await request(app).post('/svc_admin/v1/user/login').send({});
    expect(admin.body.data.path).toBe('/svc_admin/v1/user/login');
  });

  it("passes Origin through and leaves CORS of proxied answers to the upstream (an origin it refuses gets no Access-Control-Allow-Origin)", async () => {
    const app = gateway();
    const allowed = await request(app).post('/tss/v1/origin-checked').set('origin', 'https://wallet.example').send({});
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://wallet.example');
    const refused = await request(app).post('/tss/v1/origin-checked').set('origin', 'https://evil.example').send({});
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    // Preflights are the gateway's own and permissive: OPTIONS carries no API key to check.
    const preflight = await request(app)
      .options('/tss/v1/origin-checked')
      .set('origin', 'https://evil.example')
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'content-type,x-api-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://evil.example');
    // The gateway's own routes keep its CORS.
    const own = await request(app).get('/health').set('origin', 'https://evil.example');
    expect(own.headers['access-control-allow-origin']).toBe('https://evil.example');
  });

  it('keeps connections to an upstream alive: sequential calls share one connection', async () => {
    const app = gateway();
    let connections = 0;
    const count = () => void connections++;
    upstream.server.on('connection', count);
    try {
      for (let i = 0; i < 5; i++) expect((await request(app).post('/tss/v1/user/check').send({ i })).body.data.body).toEqual({ i });
    } finally {
      upstream.server.off('connection', count);
    }
    expect(connections).toBe(1);
  });

  it('answers 503 in the envelope when an upstream is down', async () => {
    const res = await request(gateway()).post('/customer_dashboard/v1/customer/info');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ success: false, code: 'UPSTREAM_UNAVAILABLE', msg: 'dashboard-api is unavailable' });
  });

  it('answers 504 in the envelope when an upstream is too slow', async () => {
    const res = await request(gateway({ UPSTREAM_TIMEOUT_MS: '300' })).get('/tss/v1/slow');
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ success: false, code: 'UPSTREAM_TIMEOUT', msg: 'tss-api did not answer in time' });
  });

  it('answers 502 in the envelope when an upstream speaks something that is not HTTP', async () => {
    const garbage = createTcpServer((socket) => socket.once('data', () => socket.end('NOT-HTTP garbage\r\n\r\n')));
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    try {
      const port = (garbage.address() as AddressInfo).port;
      const res = await request(gateway({ ADMIN_API_URL: `http://127.0.0.1:${port}` })).post('/svc_admin/v1/user/login').send({});
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ success: false, code: 'BAD_GATEWAY', msg: 'admin-api answered with an invalid response' });
    } finally {
      await new Promise((resolve) => garbage.close(resolve));
    }
  });

  it('answers 502 BAD_GATEWAY, not 504, when an upstream resets the connection mid-request (a crash)', async () => {
    const crashing = createTcpServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => crashing.listen(0, '127.0.0.1', resolve));
    try {
      const port = (crashing.address() as AddressInfo).port;
      const res = await request(gateway({ TSS_API_URL: `http://127.0.0.1:${port}` })).post('/tss/v1/triples').send({});
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ success: false, code: 'BAD_GATEWAY', msg: 'tss-api closed the connection before answering' });
    } finally {
      await new Promise((resolve) => crashing.close(resolve));
    }
  });

  it('does not forward paths outside the prefixes', async () => {
    const res = await request(gateway()).get('/tssx/v1');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  it('serves its own health and the upstream documents for /docs', async () => {
    const app = gateway();
    expect((await request(app).get('/health')).body.data).toEqual({ status: 'ok' });
    expect((await request(app).get('/docs/specs/tss-api')).body.info.title).toBe('up');
    expect((await request(app).get('/docs/specs/dashboard-api')).status).toBe(503);
    expect((await request(app).get('/docs/specs/unknown')).status).toBe(400);
    // Bad percent-encoding: 400 in the envelope, not a URIError 500.
    expect((await request(app).get('/docs/specs/%zz')).body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'Malformed percent-encoding in the URL path' });
    const page = await request(app).get('/docs/');
    expect(page.text).toContain('swagger-ui');
    // The script the page runs lists every service's document, not the gateway's alone.
    const init = await request(app).get('/docs/swagger-ui-init.js');
    const urls = /"urls": (\[[\s\S]*?\])/.exec(init.text)?.[1];
    expect(JSON.parse(urls!)).toEqual([
      { name: 'tss-api', url: '/docs/specs/tss-api' },
      { name: 'admin-api', url: '/docs/specs/admin-api' },
      { name: 'dashboard-api', url: '/docs/specs/dashboard-api' },
      { name: 'gateway', url: '/docs/openapi.json' },
    ]);
    expect(init.text).not.toContain('"swaggerDoc"');
  });

  it('fails fast on bad configuration', () => {
    expect(() => loadConfig({ PORT: 'x', TSS_API_URL: 'nope' })).toThrow(/PORT must be an integer[\s\S]*TSS_API_URL must be a URL/);
  });
});

describe('gateway readiness', () => {
  it('stays ready while an upstream is down, and reports the outage per request', async () => {
    const config = loadConfig({ TSS_API_URL: 'http://127.0.0.1:1', ADMIN_API_URL: 'http://127.0.0.1:2', DASHBOARD_API_URL: 'http://127.0.0.1:3' });
    const { app } = createApp({ config, logger });
    expect((await request(app).get('/ready')).status).toBe(200);
    expect((await request(app).post('/tss/v1/user/check')).status).toBe(503);
  });
});
