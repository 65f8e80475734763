import { verifiedIdentity } from '@svc/auth';
import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { KeyshareService } from './service.js';

/** user/reshare: the contract's nodes are asked, then marked ACTIVE (see tssApi.userReshare). */
export function keyshareRoutes(service: KeyshareService, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.userReshare, {
      guards: [guards.apiKey, guards.idToken],
      handler: (req, res) => service.reshare(verifiedIdentity(res), req.body.public_key, req.body.reshared_key_shares as unknown as Record<string, unknown>[]),
    }),
  ];
}
