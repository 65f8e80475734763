import { authClaims } from '@svc/auth';
import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { EcdsaPoolService } from './service.js';

export function ecdsaPoolRoutes(service: EcdsaPoolService, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.ecdsaPresignDiscard, {
      guards: [guards.apiKey, guards.userJwt],
      handler: (_req, res) => service.discard(authClaims(res).sub),
    }),
  ];
}
