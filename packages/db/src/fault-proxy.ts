import { createServer, connect, type Socket } from 'node:net';
import { connectionFields, connectionUrl } from './connection.js';

/**
 * A TCP relay in front of a real PostgreSQL, for tests and the fault script: what a client
 * sees when the database stalls (no byte comes back), drops every connection, or is gone
 * (connections refused). Only the wire is faked; the server behind it is real.
 */
export interface FaultProxy {
  port: number;
  /** `databaseUrl` with host and port replaced by the proxy's. */
  url(databaseUrl: string): string;
  /** Bytes stop flowing both ways (kept, delivered on resume), as with a frozen server. */
  stall(): void;
  resume(): void;
  /** Resets every open connection; new ones are accepted. */
  cut(): void;
  /** Closes the listening socket and every connection: new connections are refused. */
  stop(): Promise<void>;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  const held: (() => void)[] = [];
  let stalled = false;

  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (stalled) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };

  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    url: (databaseUrl) => connectionUrl({ ...connectionFields(databaseUrl), host: '127.0.0.1', port }),
    stall: () => void (stalled = true),
    resume: () => {
      stalled = false;
      for (const write of held.splice(0)) write();
    },
    cut: () => {
      held.length = 0;
      for (const s of sockets) s.resetAndDestroy();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
