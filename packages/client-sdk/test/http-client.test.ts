import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiKeyGuard, authClaims, issueApiKey, jwtGuard, ServiceJwt } from '@svc/auth';
import { AppError } from '@svc/envelope';
import { createLogger, createServiceApp, defineRoute, field, listen, type RunningServer } from '@svc/http';
import { HttpClient, isSvcError, SvcError } from '../src/index.js';

// A real service built with the project's own HTTP kit and guards, so the client is checked
// against the envelope, X-API-Key guard and JWT guard exactly as the apps serve them.
const apiKey = issueApiKey();
const jwt = new ServiceJwt({ secret: 'client-sdk-test-secret-0123456789abcdef', expiresIn: '1h' });
const keyGuard = apiKeyGuard(async (hash) => (hash === apiKey.hash ? { apiKeyId: 'k1', customerId: 'c1' } : null));

const routes = [
  defineRoute({
    method: 'post',
    path: '/tss/v1/user/check',
    summary: 'check (public apart from the API key)',
    guards: [keyGuard],
    body: { email: field.email() },
    errors: ['INVALID_API_KEY'],
    response: { type: 'object', properties: { exists: { type: 'boolean' }, email: { type: 'string' } } },
    handler: (req) => ({ exists: false, email: req.body.email }),
  }),
  defineRoute({
    method: 'post',
    path: '/tss/v1/whoami',
    summary: 'needs the user JWT',
    guards: [keyGuard, jwtGuard('user', jwt)],
    errors: ['INVALID_API_KEY', 'FORBIDDEN'],
    response: { type: 'object', properties: { sub: { type: 'string' } } },
    handler: (_req, res) => ({ sub: authClaims(res).sub }),
  }),
  defineRoute({
    method: 'post',
    path: '/tss/v1/user/signin',
    summary: 'spec error',
    guards: [keyGuard],
    errors: ['INVALID_API_KEY', 'USER_NOT_FOUND'],
    handler: () => {
      throw new AppError('USER_NOT_FOUND', 'User not found');
    },
  }),
  defineRoute({
    method: 'post',
    path: '/tss/v1/nothing',
    summary: 'success without data',
    guards: [keyGuard],
    errors: ['INVALID_API_KEY'],
    handler: () => null,
  }),
];

let service: RunningServer;
let raw: Server;
let rawUrl: string;
let gatewayUrl: string;

beforeAll(async () => {
  const { app } = createServiceApp({ name: 'client-sdk-test', routes, logger: createLogger('client-sdk-test', 'error') });
  service = await listen(app, 0, '127.0.0.1');
  gatewayUrl = `http://127.0.0.1:${service.port}`;
  // A server that is not the service: a proxy's HTML error page, a non-envelope JSON, a hang.
  raw = createServer((req, res) => {
    if (req.url === '/html') res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
    else if (req.url === '/json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    else if (req.url === '/hang') setTimeout(() => res.end('{}'), 2_000);
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await service?.close(0);
  raw?.closeAllConnections();
  await new Promise((resolve) => raw?.close(resolve));
});

describe('HttpClient against a real service', () => {
  it('sends X-API-Key and returns the envelope data', async () => {
    const client = new HttpClient({ gatewayUrl: `${gatewayUrl}/`, apiKey: apiKey.key });
    await expect(client.post('/tss/v1/user/check', { email: 'a@example.com' })).resolves.toEqual({ exists: false, email: 'a@example.com' });
    await expect(client.post('/tss/v1/nothing')).resolves.toBeNull();
  });

  it('sends the bearer JWT', async () => {
    const client = new HttpClient({ gatewayUrl, apiKey: apiKey.key });
    const { token } = jwt.sign('user', 'user-42');
    await expect(client.post('/tss/v1/whoami', undefined, { bearer: token })).resolves.toEqual({ sub: 'user-42' });
  });

  it("turns error envelopes into SvcError with the server's code, msg and status", async () => {
    const client = new HttpClient({ gatewayUrl, apiKey: apiKey.key });
    const cases: [Promise<unknown>, string, string, number][] = [
      [client.post('/tss/v1/user/check', {}), 'INVALID_REQUEST', 'email is required', 400],
      [client.post('/tss/v1/user/signin'), 'USER_NOT_FOUND', 'User not found', 404],
      [client.post('/tss/v1/whoami'), 'UNAUTHORIZED', 'Unauthorized', 401],
      [client.post('/tss/v1/whoami', undefined, { bearer: jwt.sign('admin', 'a').token }), 'FORBIDDEN', '', 403],
      [new HttpClient({ gatewayUrl, apiKey: 'svc_wrong' }).post('/tss/v1/nothing'), 'INVALID_API_KEY', 'Invalid API key', 401],
    ];
    for (const [call, code, msg, status] of cases) {
      const err = await call.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SvcError);
      expect(err).toMatchObject({ code, status, fromServer: true });
      if (msg) expect((err as SvcError).msg).toBe(msg);
      expect(isSvcError(err, code)).toBe(true);
    }
  });
});

describe('HttpClient failures outside the envelope', () => {
  it('reports a non-JSON or non-envelope answer as INVALID_RESPONSE with its status', async () => {
    const client = new HttpClient({ gatewayUrl: rawUrl, apiKey: apiKey.key });
    await expect(client.get('/html')).rejects.toMatchObject({ code: 'INVALID_RESPONSE', status: 502, fromServer: false });
    await expect(client.get('/json')).rejects.toMatchObject({ code: 'INVALID_RESPONSE', status: 200 });
  });

  it('reports a refused connection as NETWORK_ERROR and a slow server as TIMEOUT', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(new HttpClient({ gatewayUrl: `http://127.0.0.1:${port}`, apiKey: 'k' }).get('/')).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    await expect(new HttpClient({ gatewayUrl: rawUrl, apiKey: 'k', timeoutMs: 200 }).get('/hang')).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it("ends the app's own cancellation in ABORTED, the fetch's AbortError as its cause", async () => {
    const controller = new AbortController();
    const call = new HttpClient({ gatewayUrl: rawUrl, apiKey: 'k' }).get('/hang', { signal: controller.signal });
    controller.abort();
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    expect(err).toMatchObject({ code: 'ABORTED', status: 0 });
    expect(((err as Error).cause as Error).name).toBe('AbortError');
  });

  it('refuses a configuration without a URL or API key', () => {
    expect(() => new HttpClient({ gatewayUrl: 'localhost:4200', apiKey: 'k' })).toThrow(SvcError);
    expect(() => new HttpClient({ gatewayUrl: 'http://localhost:4200', apiKey: '' })).toThrow(SvcError);
  });
});
