import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Tamper = (path: string, body: { success: boolean; data?: unknown }) => void;

export interface TamperingProxy {
  url: string;
  /** Alters the next JSON answers (in place) until cleared; null forwards untouched. */
  setTamper(tamper: Tamper | null): void;
  close(): Promise<void>;
}

/**
 * A man in the middle between the SDK and the gateway: forwards every request and lets a test
 * rewrite fields of the JSON answers (a malicious or broken server, as the client sees it).
 */
export async function startTamperingProxy(target: string): Promise<TamperingProxy> {
  let tamper: Tamper | null = null;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k)),
        ) as Record<string, string>;
        const upstream = await fetch(target + (req.url ?? '/'), {
          method: req.method ?? 'GET',
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        let text = await upstream.text();
        if (tamper && upstream.headers.get('content-type')?.includes('json')) {
          const body = JSON.parse(text) as { success: boolean; data?: unknown };
          tamper(new URL(req.url ?? '/', target).pathname, body);
          text = JSON.stringify(body);
        }
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json', 'access-control-allow-origin': '*' });
        res.end(text);
      })().catch((err: unknown) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setTamper(t) {
      tamper = t;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
