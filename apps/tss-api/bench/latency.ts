/** Percentile of an ascending list (nearest rank). */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

export interface Timed<T> {
  results: T[];
  /** Per-operation latencies in ms, ascending. */
  latencies: number[];
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
}

/** Runs `once` n times with `concurrency` in flight, timing each call and the whole run. */
export async function timeConcurrently<T>(n: number, concurrency: number, once: () => Promise<T>): Promise<Timed<T>> {
  const latencies: number[] = [];
  const results: T[] = [];
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < n) {
        started++;
        const start = performance.now();
        results.push(await once());
        latencies.push(performance.now() - start);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { results, latencies, seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), perSecond: n / seconds };
}
