import type { Server } from 'node:http';
import type { Express } from 'express';
import { answerClientError } from './client-error.js';
import type { Logger } from './logger.js';

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish within `graceMs`, then cuts the rest. */
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_GRACE_MS = 10_000;

/**
 * How long an idle keep-alive connection stays open (Node's default is 5 s). A client that reuses
 * a connection at the moment the server closes it gets a reset (a failed upload, for a large
 * body): the gateway's pool drops idle upstream sockets after 15 s (apps/gateway/src/proxy.ts),
 * far from this, and load balancers' idle timeouts (typically 60 s) stay below it.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function listen(app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.on('clientError', answerClientError);
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Must exceed keepAliveTimeout, or a reused connection can time out waiting for headers.
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      resolve({ server, port: actualPort, close: (graceMs) => drain(server, graceMs ?? DEFAULT_GRACE_MS) });
    });
  });
}

function drain(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    // Idle keep-alive sockets would otherwise hold close() open until the grace period ends.
    server.closeIdleConnections();
  });
}

/**
 * Runs `stop` once on SIGTERM or SIGINT (the orchestrator's and Ctrl-C's), then exits.
 * A second signal exits at once.
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info('shutting down', { signal });
    stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error('shutdown failed', { error: String(error) });
        process.exit(1);
      });
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
