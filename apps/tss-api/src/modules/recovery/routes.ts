import { verifiedIdentity } from '@svc/auth';
import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { RecoveryService } from './service.js';

export function recoveryRoutes(service: RecoveryService, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.userSeedParts, {
      guards: [guards.apiKey, guards.idToken],
      handler: (_req, res) => service.seedParts(verifiedIdentity(res)),
    }),
  ];
}
