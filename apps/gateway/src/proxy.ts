import { Agent, type ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import { AppError, failure } from '@svc/envelope';
import type { Logger } from '@svc/http';
import type { Upstream } from './upstreams.js';

const IDLE_UPSTREAM_SOCKET_MS = 15_000;

/**
 * What the gateway's own CORS middleware (@svc/http) puts on every response before the proxy
 * runs. On a proxied response the upstream's CORS answer is the one that counts: tss-api leaves
 * Access-Control-Allow-Origin out when it refuses an API key's unlisted origin (docs/auth.md,
 * "Allowed origins"), and the gateway's reflected origin must not put it back. Preflights stay
 * the gateway's (they are permissive everywhere; the Origin of the actual request is forwarded
 * unchanged, like every other request header).
 */
const GATEWAY_CORS_HEADERS = ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers'];

/**
 * Forwards `prefix/**` to the upstream with the path unchanged. Upstream failures keep the
 * envelope: refused or unreachable -> 503 UPSTREAM_UNAVAILABLE, too slow -> 504
 * UPSTREAM_TIMEOUT, anything else (a connection reset by a crashed upstream, a reply that is
 * not HTTP) -> 502 BAD_GATEWAY.
 */
export function proxyTo(upstream: Upstream, timeoutMs: number, logger: Logger): RequestHandler {
  // http-proxy reports its own proxyTimeout as a reset socket, like a crash: the requests
  // whose timeout fired are remembered to tell the two apart.
  const timedOut = new WeakSet<IncomingMessage>();
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: upstream.target,
    // Without an agent http-proxy opens a new TCP connection per request and sends
    // `Connection: close`; connecting was ~15% of the gateway's CPU per call. Keep-alive reuses
    // connections. An idle pooled socket is dropped after IDLE_UPSTREAM_SOCKET_MS, well before the
    // upstream closes it (65 s, @svc/http listen; the agent also honours a shorter
    // `Keep-Alive: timeout` hint minus 1 s), so a request — a 6 MB triples upload, say — is not
    // sent into a connection the upstream is closing, even when a loaded event loop runs timers
    // late. An active request's socket timeout is proxyTimeout, set per request by http-proxy.
    agent: new Agent({ keepAlive: true, timeout: IDLE_UPSTREAM_SOCKET_MS }),
    changeOrigin: true,
    xfwd: true,
    // The default plugins minus the logger, which builds a URL and a line for every proxied
    // response to hand to a logger that drops it (the gateway logs requests itself, @svc/http).
    // Errors are answered by `on.error` below (http-proxy-middleware then leaves out its own
    // error response plugin).
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
    proxyTimeout: timeoutMs,
    pathFilter: (path) => path === upstream.prefix || path.startsWith(`${upstream.prefix}/`),
    on: {
      proxyReq: (proxyReq, req, res) => {
        proxyReq.once('timeout', () => timedOut.add(req));
        // Connection is hop-by-hop (RFC 9110 §7.6.1): a client's `Connection: close` is about its
        // own connection to the gateway and must not close the pooled one to the upstream.
        proxyReq.setHeader('connection', 'keep-alive');
        const id = (res as ServerResponse & { locals?: { requestId?: string } }).locals?.requestId;
        if (id) proxyReq.setHeader('x-request-id', id);
      },
      // Runs before http-proxy copies the upstream's headers onto the response.
      proxyRes: (_proxyRes, _req, res) => {
        for (const header of GATEWAY_CORS_HEADERS) res.removeHeader(header);
      },
      error: (err, req, res) => {
        const error = timedOut.has(req) ? new AppError('UPSTREAM_TIMEOUT', `${upstream.name} did not answer in time`) : classify(err as NodeJS.ErrnoException, upstream.name);
        logger.warn('upstream failed', { upstream: upstream.name, code: (err as NodeJS.ErrnoException).code });
        if (!('writeHead' in res)) return (res as Socket).destroy();
        if (res.headersSent) return void res.end();
        res.writeHead(error.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(failure(error.code, error.msg)));
      },
    },
  }) as unknown as RequestHandler;
}

function classify(err: NodeJS.ErrnoException, name: string): AppError {
  switch (err.code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'EAI_AGAIN':
      return new AppError('UPSTREAM_UNAVAILABLE', `${name} is unavailable`);
    case 'ECONNRESET':
      return new AppError('BAD_GATEWAY', `${name} closed the connection before answering`);
    default:
      return new AppError('BAD_GATEWAY', `${name} answered with an invalid response`);
  }
}
