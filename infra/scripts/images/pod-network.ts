/**
 * A pod network for the containers of test:images, as a CNI bridge plugin makes one: a Linux
 * bridge on the host (10.89.0.1/24) and, per container, its own network namespace joined to
 * the bridge by a veth pair, with its pod address and a default route through the host. So
 * every pod listens on 0.0.0.0 and its manifests' port as in Kubernetes (three key share nodes
 * on 4201), nothing else on the machine can answer in its place, and the host reaches pods at
 * their addresses. Outside services on the host (PostgreSQL, the OIDC issuer) listen on
 * 127.0.0.1 and are forwarded from the bridge address.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { command, succeeds } from './command.js';

const BRIDGE = 'svc-images0';
const PREFIX = '10.89.0';
export const HOST_ADDRESS = `${PREFIX}.1`;

export interface PodNetwork {
  /** The n-th pod address (n >= 2). */
  address(n: number): string;
  /** Moves the network namespace of process `pid` onto the bridge with address `ip`. */
  attach(pid: number, ip: string): Promise<void>;
  /** Forwards HOST_ADDRESS:port to 127.0.0.1:targetPort (a host service pods must reach). */
  forward(port: number, targetPort: number): Promise<void>;
  close(): Promise<void>;
}

export async function createPodNetwork(): Promise<PodNetwork> {
  // Left over by an interrupted run: start clean.
  if (await succeeds('ip', ['link', 'show', BRIDGE])) await command('ip', ['link', 'del', BRIDGE]);
  await command('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
  await command('ip', ['addr', 'add', `${HOST_ADDRESS}/24`, 'dev', BRIDGE]);
  await command('ip', ['link', 'set', BRIDGE, 'up']);
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  let links = 0;
  return {
    address: (n) => `${PREFIX}.${n}`,
    async attach(pid, ip) {
      const n = ++links;
      const [hostEnd, podEnd] = [`svch${n}`, `svcc${n}`];
      await command('ip', ['link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', podEnd]);
      await command('ip', ['link', 'set', podEnd, 'netns', String(pid)]);
      await command('ip', ['link', 'set', hostEnd, 'master', BRIDGE, 'up']);
      const inPod = (...args: string[]) => command('nsenter', [`--target=${pid}`, '--net', 'ip', ...args]);
      await inPod('link', 'set', 'lo', 'up');
      await inPod('link', 'set', podEnd, 'name', 'eth0');
      await inPod('addr', 'add', `${ip}/24`, 'dev', 'eth0');
      await inPod('link', 'set', 'eth0', 'up');
      await inPod('route', 'add', 'default', 'via', HOST_ADDRESS);
    },
    async forward(port, targetPort) {
      const server = createServer((socket) => {
        const upstream = connect(targetPort, '127.0.0.1');
        for (const s of [socket, upstream]) {
          sockets.add(s);
          s.once('close', () => sockets.delete(s));
        }
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, HOST_ADDRESS, () => resolve());
      });
      servers.push(server);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      for (const server of servers) await new Promise((resolve) => server.close(resolve));
      await command('ip', ['link', 'del', BRIDGE]).catch(() => undefined);
    },
  };
}
