import type { GatewayConfig } from './env.js';

export interface Upstream {
  name: string;
  /** Path prefix the gateway forwards, unchanged, to `target`. */
  prefix: string;
  target: string;
}

/** The routing table of the gateway: spec §9's version prefixes to their services. */
export function upstreamsOf(config: GatewayConfig): Upstream[] {
  return [
    { name: 'tss-api', prefix: '/tss', target: config.upstreams.tssApi },
    { name: 'admin-api', prefix: '/svc_admin', target: config.upstreams.adminApi },
    { name: 'dashboard-api', prefix: '/customer_dashboard', target: config.upstreams.dashboardApi },
  ];
}
