/**
 * The ingress controller of test:images: HTTPS on the pod network's host address, routing by
 * Host header as the manifests' Ingress objects say, to the pod behind each Service. Its
 * certificate comes from a throwaway CA made here with openssl; the containers trust that CA
 * (NODE_EXTRA_CA_CERTS, a mounted file) as a cluster's pods trust a public one.
 */
import { request } from 'node:http';
import { createServer, type Server } from 'node:https';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { command } from './command.js';

export interface Ingress {
  /** Folder holding ca.pem (mounted into the containers). */
  caDir: string;
  close(): Promise<void>;
}

async function makeCertificate(dir: string, hosts: string[]): Promise<{ key: Buffer; cert: Buffer }> {
  const p = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await command('openssl', ['req', '-x509', ...ec, '-days', '1', '-subj', '/CN=svc images test CA', '-keyout', p('ca.key'), '-out', p('ca.pem'),
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign']);
  await command('openssl', ['req', ...ec, '-subj', '/CN=ingress', '-keyout', p('tls.key'), '-out', p('tls.csr')]);
  await writeFile(p('tls.ext'), `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}\nextendedKeyUsage=serverAuth\n`);
  await command('openssl', ['x509', '-req', '-in', p('tls.csr'), '-CA', p('ca.pem'), '-CAkey', p('ca.key'), '-CAcreateserial', '-days', '1', '-extfile', p('tls.ext'), '-out', p('tls.crt')]);
  return { key: await readFile(p('tls.key')), cert: await readFile(p('tls.crt')) };
}

/** `route(host)` gives the pod address and port behind an Ingress host, or undefined. */
export async function startIngress(dir: string, address: string, hosts: string[], route: (host: string) => { ip: string; port: number } | undefined): Promise<Ingress> {
  const caDir = join(dir, 'ca');
  await mkdir(caDir, { recursive: true });
  const tls = await makeCertificate(dir, hosts);
  await writeFile(join(caDir, 'ca.pem'), await readFile(join(dir, 'ca.pem')));
  const server: Server = createServer(tls, (req, res) => {
    const target = route((req.headers.host ?? '').replace(/:\d+$/, ''));
    if (!target) {
      res.writeHead(404).end();
      return;
    }
    const headers = { ...req.headers, 'x-forwarded-proto': 'https', 'x-forwarded-for': req.socket.remoteAddress ?? '' };
    const upstream = request({ host: target.ip, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.headersSent ? res.destroy() : res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(443, address, () => resolve());
  });
  return {
    caDir,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
