import { EnvReader, type TrustProxy } from '@svc/config';

export interface GatewayConfig {
  port: number;
  host: string;
  logLevel: string;
  /** TRUST_PROXY: whose X-Forwarded-For names the client (default loopback; docs/operations.md). */
  trustProxy: TrustProxy;
  upstreams: { tssApi: string; adminApi: string; dashboardApi: string };
  /** How long an upstream may take before the gateway answers 504. */
  upstreamTimeoutMs: number;
}

export function loadConfig(source: Record<string, string | undefined>): GatewayConfig {
  const env = new EnvReader(source);
  const config: GatewayConfig = {
    port: env.port('PORT', 4200),
    host: env.string('HOST', '0.0.0.0'),
    logLevel: env.string('LOG_LEVEL', 'info'),
    trustProxy: env.trustProxy('TRUST_PROXY'),
    upstreams: {
      tssApi: env.url('TSS_API_URL', 'http://127.0.0.1:4210'),
      adminApi: env.url('ADMIN_API_URL', 'http://127.0.0.1:4220'),
      dashboardApi: env.url('DASHBOARD_API_URL', 'http://127.0.0.1:4230'),
    },
    upstreamTimeoutMs: env.int('UPSTREAM_TIMEOUT_MS', 30_000, { min: 100 }),
  };
  env.done();
  return config;
}
