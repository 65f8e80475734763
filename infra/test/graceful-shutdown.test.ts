/**
 * What Kubernetes relies on when it stops a pod: on SIGTERM the app stops accepting
 * connections, lets in-flight requests finish, and exits 0 within a bound (10 s, the
 * @svc/http default; terminationGracePeriodSeconds is 30). The app is the real gateway,
 * started as its own process the way `pnpm start` does (tsx), in front of a real local
 * upstream that answers slowly.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { freePort, spawnProcess, waitForOk, type Spawned } from './child-process.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const DRAIN_BOUND_MS = 10_000;

let upstream: Server;
let upstreamUrl: string;
const arrived: string[] = [];
let onArrival: (() => void) | undefined;

beforeAll(async () => {
  // /tss/v1/slow answers after 1.5 s; /tss/v1/hang never answers.
  upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
    arrived.push(req.url ?? '');
    onArrival?.();
    if (req.url?.startsWith('/tss/v1/slow')) {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{"done":true}}'), 1500);
    }
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const address = upstream.address();
  upstreamUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

async function startGateway(): Promise<{ gateway: Spawned; base: string }> {
  const port = await freePort();
  const gateway = spawnProcess(process.execPath, ['--import', 'tsx', join(repoRoot, 'apps', 'gateway', 'src', 'index.ts')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      TSS_API_URL: upstreamUrl,
      ADMIN_API_URL: upstreamUrl,
      DASHBOARD_API_URL: upstreamUrl,
      UPSTREAM_TIMEOUT_MS: '60000',
    },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForOk(`${base}/health`, gateway);
  return { gateway, base };
}

function nextArrival(): Promise<void> {
  return new Promise((resolve) => (onArrival = resolve));
}

test('SIGTERM lets an in-flight request finish, refuses new connections, and exits 0', async () => {
  const { gateway, base } = await startGateway();
  const arrival = nextArrival();
  const inFlight = fetch(`${base}/tss/v1/slow`, { method: 'POST', headers: { connection: 'close' } });
  await arrival; // the request is inside the gateway, waiting on the upstream
  const signalledAt = Date.now();
  gateway.child.kill('SIGTERM');

  const res = await inFlight;
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ success: true, data: { done: true } });

  const { code, at } = await gateway.exited;
  expect(code).toBe(0);
  expect(at - signalledAt).toBeLessThan(DRAIN_BOUND_MS);
  await expect(fetch(`${base}/health`)).rejects.toThrow();
  expect(gateway.output()).toMatch(/"message":"shutting down".*"signal":"SIGTERM"/);
}, 60_000);

test('a request that outlives the drain bound is cut, and the process still exits in time', async () => {
  const { gateway, base } = await startGateway();
  const arrival = nextArrival();
  const hanging = fetch(`${base}/tss/v1/hang`, { method: 'POST' }).then(
    (r) => r.status,
    () => 'cut' as const,
  );
  await arrival;
  const signalledAt = Date.now();
  gateway.child.kill('SIGTERM');
  const { code, at } = await gateway.exited;
  expect(code).toBe(0);
  const took = at - signalledAt;
  expect(took).toBeGreaterThanOrEqual(DRAIN_BOUND_MS - 500); // it did wait for the request...
  expect(took).toBeLessThan(DRAIN_BOUND_MS + 5_000); // ...but no longer than the bound
  expect(await hanging).toBe('cut');
}, 60_000);
