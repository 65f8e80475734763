/** Settings of `pnpm bench:sign` (the only place the bench reads the environment). */
export interface BenchSettings {
  /** A running gateway to target; unset -> the bench starts tss-api + gateway itself. */
  url?: string;
  /** With BENCH_URL: an API key and an ID token accepted by that stack. */
  apiKey?: string;
  idToken?: string;
  /** Signatures per phase. */
  n: number;
  concurrency: number;
}

export function readBenchSettings(env: Record<string, string | undefined>): BenchSettings {
  const int = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
    return value;
  };
  const settings: BenchSettings = { n: int('BENCH_N', 200), concurrency: int('BENCH_CONCURRENCY', 8) };
  if (env.BENCH_URL) {
    if (!env.BENCH_API_KEY || !env.BENCH_ID_TOKEN) throw new Error('BENCH_URL needs BENCH_API_KEY and BENCH_ID_TOKEN (an ID token that stack accepts)');
    Object.assign(settings, { url: env.BENCH_URL.replace(/\/+$/, ''), apiKey: env.BENCH_API_KEY, idToken: env.BENCH_ID_TOKEN });
  }
  return settings;
}

export const benchEnv = process.env;
