import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on right now (the OS picks it), for test servers and local
 * stacks that must know their port before they start (an embedded PostgreSQL, a gateway whose
 * URL other services are configured with). Exported from `@svc/db/testing`.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}
