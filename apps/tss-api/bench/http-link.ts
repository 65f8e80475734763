import type { Envelope } from '../test/support/wallet-client.js';

/** Counters of one link since its last reset. */
export interface LinkStats {
  requests: number;
  /** JSON bytes of request bodies and of response bodies. */
  sent: number;
  received: number;
  /** Wall time actually spent in the simulated delay (timers overshoot a little). */
  delayMs: number;
}

export interface HttpLink {
  post<T>(path: string, body: unknown): Promise<Envelope<T>>;
  stats: LinkStats;
  reset(): void;
  /** The simulated round trip added to every request (0: plain loopback). */
  rttMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * fetch (as the SDK uses it) with counters and, when `rttMs` > 0, a simulated network: half the
 * round trip is waited before the request is sent, half after its response body has arrived.
 * Only latency is simulated: no bandwidth limit, no TCP/TLS handshake or slow start (undici keeps
 * the connection alive), so large offline messages are cheaper here than on a real link.
 */
export function httpLink(baseUrl: string, headers: Record<string, string>, rttMs = 0): HttpLink {
  const stats: LinkStats = { requests: 0, sent: 0, received: 0, delayMs: 0 };
  const delay = async () => {
    if (rttMs <= 0) return;
    const t = performance.now();
    await sleep(rttMs / 2);
    stats.delayMs += performance.now() - t;
  };
  return {
    rttMs,
    stats,
    reset() {
      Object.assign(stats, { requests: 0, sent: 0, received: 0, delayMs: 0 });
    },
    async post<T>(path: string, body: unknown): Promise<Envelope<T>> {
      const json = JSON.stringify(body);
      await delay();
      const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: json });
      const text = await res.text();
      await delay();
      stats.requests++;
      stats.sent += Buffer.byteLength(json);
      stats.received += Buffer.byteLength(text);
      return { status: res.status, body: JSON.parse(text) as Envelope<T>['body'] };
    },
  };
}
