import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface LocalServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 with a free port: the far end of a provider in tests. */
export async function startLocalServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
