import winston from 'winston';
import request from 'supertest';
import { AppError } from '@svc/envelope';
import { captureLogger } from './support/capture-logger.js';
import { createServiceApp, defineRoute, field, listen, listMountedRoutes, toOpenApiPath, type JsonSchema } from '../src/index.js';

function build(ready?: () => Promise<void>, level?: string) {
  const { logger, lines } = captureLogger(level);
  const routes = [
    defineRoute({
      method: 'post',
      path: '/v1/echo',
      summary: 'echo',
      body: {
        email: field.email(),
        count: field.int({ min: 1, max: 10 }).optional(),
      },
      handler: (req) => ({ email: req.body.email }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/items/:item_id',
      summary: 'one item',
      params: { item_id: field.uuid() },
      handler: (req) => ({ id: req.params.item_id }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/boom',
      summary: 'fails unexpectedly',
      handler: () => {
        throw new Error('database password is hunter2');
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/missing',
      summary: 'fails as specified',
      handler: () => {
        throw new AppError('USER_NOT_FOUND', 'User not found');
      },
    }),
  ];
  const service = createServiceApp({ name: 'test-svc', routes, logger, ready });
  return { ...service, lines };
}

describe('createServiceApp', () => {
  it('wraps a handler result in the success envelope', async () => {
    const { app } = build();
    const res = await request(app).post('/v1/echo').send({ email: 'a@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { email: 'a@example.com' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers malformed JSON with 400 INVALID_REQUEST', async () => {
    const { app } = build();
    const res = await request(app).post('/v1/echo').set('content-type', 'application/json').send('{"email": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'Malformed JSON body' });
  });

  it('answers a body over 10 MB with 413 in the envelope', async () => {
    const { app } = build();
    const big = JSON.stringify({ email: 'a@example.com', pad: 'x'.repeat(10 * 1024 * 1024 + 10) });
    const res = await request(app).post('/v1/echo').set('content-type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, code: 'PAYLOAD_TOO_LARGE', msg: 'Request body exceeds the 10 MB limit' });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const { app } = build();
    const res = await request(app).get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', msg: 'Route GET /nope not found' });
  });

  it('hides the detail of an unexpected error and logs it with the request id', async () => {
    const { app, lines } = build();
    const res = await request(app).post('/v1/boom').set('x-request-id', 'req-42');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, code: 'UNKNOWN_ERROR', msg: 'Something went wrong' });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    const logged = lines.find((l) => l.message === 'request failed');
    expect(logged).toMatchObject({ request_id: 'req-42', code: 'UNKNOWN_ERROR' });
    expect(JSON.stringify(logged)).toContain('hunter2');
  });

  it('maps an AppError to its status, code and msg', async () => {
    const { app } = build();
    const res = await request(app).post('/v1/missing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, code: 'USER_NOT_FOUND', msg: 'User not found' });
  });

  it.each([
    [{}, 'email is required'],
    [{ email: 'nope' }, 'email must be a valid email address'],
    [{ email: 'a@example.com', count: 11 }, 'count must be an integer between 1 and 10'],
    [{ email: 'a@example.com', extra: 1 }, 'Unknown field: extra'],
  ])('validates the body %j -> %s', async (body, msg) => {
    const { app } = build();
    const res = await request(app).post('/v1/echo').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });

  it('rejects a JSON body that is not an object', async () => {
    const { app } = build();
    const res = await request(app).post('/v1/echo').send([1, 2]);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Request body must be a JSON object');
  });

  it('validates path parameters', async () => {
    const { app } = build();
    expect((await request(app).get('/v1/items/not-a-uuid')).body.msg).toBe('item_id must be a UUID');
  });

  it('logs requests without bodies or query strings', async () => {
    const { app, lines } = build();
    await request(app).post('/v1/echo?token=secret-in-query').send({ email: 'secret@example.com' });
    const line = lines.find((l) => l.message === 'request');
    expect(line).toMatchObject({ method: 'POST', path: '/v1/echo', route: '/v1/echo', status: 200 });
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('writes no request line when the level is above info', async () => {
    const { app, lines } = build(undefined, 'warn');
    await request(app).post('/v1/echo').send({ email: 'a@example.com' });
    expect(lines.filter((l) => l.message === 'request')).toEqual([]);
  });

  it('serves /health, /ready and /metrics', async () => {
    const { app } = build(async () => undefined);
    expect((await request(app).get('/health')).body).toEqual({ success: true, data: { status: 'ok' } });
    expect((await request(app).get('/ready')).body).toEqual({ success: true, data: { status: 'ready' } });
    await request(app).get('/health');
    const metrics = await request(app).get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/http_requests_total\{[^}]*route="\/health"[^}]*\} \d+/);
  });

  it('reports not ready while the readiness check fails', async () => {
    const { app } = build(async () => {
      throw new Error('connection refused');
    });
    const res = await request(app).get('/ready');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ success: false, code: 'NOT_READY', msg: 'Service is not ready' });
  });

  it('sets security headers and allows cross-origin requests', async () => {
    const { app } = build();
    const res = await request(app).get('/health').set('origin', 'https://wallet.example');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBe('https://wallet.example');
  });

  it('documents every mounted route in the OpenAPI document', async () => {
    const { app, openapi } = build();
    const paths = openapi.paths as Record<string, Record<string, JsonSchema>>;
    const mounted = listMountedRoutes(app).filter((r) => !r.startsWith('GET /docs'));
    expect(mounted.length).toBeGreaterThanOrEqual(7);
    for (const route of mounted) {
      const [method, path] = route.split(' ') as [string, string];
      expect(paths[toOpenApiPath(path)]?.[method.toLowerCase()]).toBeDefined();
    }
    const echo = paths['/v1/echo']!.post!;
    expect(echo.requestBody).toMatchObject({
      content: {
        'application/json': {
          schema: { required: ['email'], properties: { email: { format: 'email' }, count: { type: 'integer', minimum: 1, maximum: 10 } } },
        },
      },
    });
  });

  it('renders the documentation UI at /docs', async () => {
    const { app } = build();
    const page = await request(app).get('/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
    const doc = await request(app).get('/docs/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
  });
});

describe('rateLimitGuard', () => {
  it('answers 429 in the envelope past the limit', async () => {
    const { rateLimitGuard } = await import('../src/index.js');
    const guard = rateLimitGuard({ name: 'testLimit', windowMs: 60_000, limit: 2 });
    const { app } = createServiceApp({
      name: 'rl',
      logger: winston.createLogger({ silent: true }),
      routes: [defineRoute({ method: 'post', path: '/login', summary: 'login', guards: [guard], handler: () => null })],
    });
    expect((await request(app).post('/login')).status).toBe(200);
    expect((await request(app).post('/login')).status).toBe(200);
    const third = await request(app).post('/login');
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ success: false, code: 'RATE_LIMITED', msg: 'Too many requests, try again later' });
    expect(third.headers['retry-after']).toBeDefined();
  });

  it('with overLimit, marks the requests past the limit and lets them through (no 429)', async () => {
    const { rateLimitGuard } = await import('../src/index.js');
    const guard = rateLimitGuard({ name: 'budget', windowMs: 60_000, limit: 2, overLimit: (_req, res) => { res.locals.over = true; } });
    expect(guard.errors).toEqual([]);
    const { app } = createServiceApp({
      name: 'rl',
      logger: winston.createLogger({ silent: true }),
      routes: [defineRoute({ method: 'post', path: '/check', summary: 'check', guards: [guard], handler: (_req, res) => ({ cheap: res.locals.over === true }) })],
    });
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(app).post('/check');
      answers.push([res.status, res.body.data?.cheap]);
    }
    expect(answers).toEqual([[200, false], [200, false], [200, true], [200, true]]);
  });

  it('counts per client behind a proxy on a private network only when trustProxy names that network', async () => {
    const { rateLimitGuard } = await import('../src/index.js');
    // Each request arrives from a proxy at 10.1.2.3 (a gateway or ingress on a pod network),
    // which names its client first in X-Forwarded-For; supertest itself is the loopback hop.
    const twoClients = async (trustProxy?: number | string[]) => {
      const guard = rateLimitGuard({ name: 'perClient', windowMs: 60_000, limit: 1 });
      const { app } = createServiceApp({
        name: 'rl',
        logger: winston.createLogger({ silent: true }),
        ...(trustProxy !== undefined ? { trustProxy } : {}),
        routes: [defineRoute({ method: 'post', path: '/login', summary: 'login', guards: [guard], handler: (req) => ({ ip: req.ip }) })],
      });
      const a = await request(app).post('/login').set('x-forwarded-for', '203.0.113.1, 10.1.2.3');
      const b = await request(app).post('/login').set('x-forwarded-for', '203.0.113.2, 10.1.2.3');
      return [a.status, a.body.data?.ip, b.status];
    };
    // Loopback alone: the proxy's address is the client's, so every client shares one limit.
    expect(await twoClients()).toEqual([200, '10.1.2.3', 429]);
    expect(await twoClients(['loopback', '10.0.0.0/8'])).toEqual([200, '203.0.113.1', 200]);
    expect(await twoClients(2)).toEqual([200, '203.0.113.1', 200]);
  });
});

describe('guard order', () => {
  it('runs guards reading a bearer token first, then the others, each group as listed (spec §4.1 rule 1, §5 rule 4)', async () => {
    const ran: string[] = [];
    const guard = (name: string, scheme: JsonSchema, code: 'UNAUTHORIZED' | 'INVALID_API_KEY' | 'RATE_LIMITED') => ({
      name,
      scheme,
      middleware: (req: { get(h: string): string | undefined }, _res: unknown, next: () => void) => {
        ran.push(name);
        if (!req.get(`x-pass-${name}`)) throw new AppError(code, name);
        next();
      },
    });
    const key = guard('key', { type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'INVALID_API_KEY');
    const token = guard('token', { type: 'http', scheme: 'bearer' }, 'UNAUTHORIZED');
    const limit = guard('limit', { type: 'apiKey', in: 'header', name: 'X-Limit' }, 'RATE_LIMITED');
    const { app } = createServiceApp({
      name: 'order',
      logger: winston.createLogger({ silent: true }),
      routes: [defineRoute({ method: 'post', path: '/x', summary: 'x', guards: [key, token, limit], handler: () => null })],
    });
    expect((await request(app).post('/x')).body.code).toBe('UNAUTHORIZED');
    expect((await request(app).post('/x').set('x-pass-token', '1')).body.code).toBe('INVALID_API_KEY');
    expect((await request(app).post('/x').set('x-pass-token', '1').set('x-pass-key', '1')).body.code).toBe('RATE_LIMITED');
    ran.length = 0;
    expect((await request(app).post('/x').set('x-pass-token', '1').set('x-pass-key', '1').set('x-pass-limit', '1')).status).toBe(200);
    expect(ran).toEqual(['token', 'key', 'limit']);
  });

  it('documents a body of several shapes with bodySchema', async () => {
    const bodySchema = { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'integer' } } }] };
    const { openapi } = createServiceApp({
      name: 'shapes',
      logger: winston.createLogger({ silent: true }),
      routes: [defineRoute({ method: 'post', path: '/y', summary: 'y', bodySchema, handler: () => null })],
    });
    const op = (openapi.paths as Record<string, Record<string, { requestBody: { required: boolean; content: Record<string, { schema: unknown }> } }>>)['/y']!.post!;
    expect(op.requestBody).toEqual({ required: true, content: { 'application/json': { schema: bodySchema } } });
  });
});

describe('listen', () => {
  it('keeps idle connections open past the usual 60 s of proxies and says so in Keep-Alive (no reset under a reused request)', async () => {
    const { app } = createServiceApp({ name: 'ka', logger: winston.createLogger({ silent: true }), routes: [] });
    const running = await listen(app, 0, '127.0.0.1');
    try {
      expect(running.server.keepAliveTimeout).toBe(65_000);
      expect(running.server.headersTimeout).toBeGreaterThan(running.server.keepAliveTimeout);
      const res = await fetch(`http://127.0.0.1:${running.port}/health`);
      expect(res.headers.get('keep-alive')).toBe('timeout=65');
    } finally {
      await running.close(0);
    }
  });
});
