// Docker HEALTHCHECK of every service image: the process answers /health (liveness).
// Kubernetes does not use this; its probes call /health and /ready directly.
import { readFileSync } from 'node:fs';

const image = JSON.parse(readFileSync(new URL('./image.json', import.meta.url), 'utf8'));
const port = process.env.PORT || image.port;
// The app listens on HOST: loopback reaches it only when HOST is a wildcard address.
const listen = process.env.HOST || '0.0.0.0';
const host = listen === '0.0.0.0' ? '127.0.0.1' : listen === '::' ? '[::1]' : listen.includes(':') ? `[${listen}]` : listen;
fetch(`http://${host}:${port}/health`, { signal: AbortSignal.timeout(2500) })
  .then((res) => process.exit(res.ok ? 0 : 1))
  .catch(() => process.exit(1));
