/** Settings of `pnpm bench:sign` (the only place the bench reads the environment). */
export interface BenchSettings {
  /** A running gateway to target; unset -> the bench starts tss-api + gateway itself. */
  url?: string;
  /** With BENCH_URL: an API key and ID tokens accepted by that stack (one per keygen: an ID token creates wallets once). */
  apiKey?: string;
  idTokens?: string[];
  /** Signatures per phase. */
  n: number;
  concurrency: number;
  /** BENCH_CURVES: which parts run (default both). */
  curves: ('ed25519' | 'secp256k1')[];
  /** BENCH_ECDSA_N: ECDSA signatures per loopback phase (at most ECDSA_PRESIGNATURE_POOL_MAX, default 100). */
  ecdsaN: number;
  /** BENCH_RTT_N: ECDSA signatures per phase with the simulated 50 ms round trip. */
  rttN: number;
}

export function readBenchSettings(env: Record<string, string | undefined>): BenchSettings {
  const int = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
    return value;
  };
  const curves = (env.BENCH_CURVES ?? 'ed25519,secp256k1').split(',').map((c) => c.trim());
  if (curves.some((c) => c !== 'ed25519' && c !== 'secp256k1')) throw new Error('BENCH_CURVES is a list of ed25519, secp256k1');
  const settings: BenchSettings = {
    n: int('BENCH_N', 200),
    concurrency: int('BENCH_CONCURRENCY', 8),
    curves: curves as BenchSettings['curves'],
    ecdsaN: int('BENCH_ECDSA_N', 100),
    rttN: int('BENCH_RTT_N', 50),
  };
  if (env.BENCH_URL) {
    if (!env.BENCH_API_KEY || !env.BENCH_ID_TOKEN) {
      throw new Error('BENCH_URL needs BENCH_API_KEY and BENCH_ID_TOKEN (ID tokens that stack accepts, comma-separated: one per curve benched)');
    }
    Object.assign(settings, { url: env.BENCH_URL.replace(/\/+$/, ''), apiKey: env.BENCH_API_KEY, idTokens: env.BENCH_ID_TOKEN.split(',').map((t) => t.trim()) });
  }
  return settings;
}

export const benchEnv = process.env;
