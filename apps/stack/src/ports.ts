import { createServer } from 'node:net';

/** The first of `ports` another process listens on (as the apps bind: every interface), if any. */
export async function firstTakenPort(ports: { port: number; name: string }[]): Promise<{ port: number; name: string } | undefined> {
  for (const entry of ports) {
    if (!(await canListen(entry.port))) return entry;
  }
  return undefined;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '0.0.0.0', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
