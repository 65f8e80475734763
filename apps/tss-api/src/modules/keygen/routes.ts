import { verifiedIdentity } from '@svc/auth';
import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { KeygenRequest, KeygenService } from './service.js';

export function keygenRoutes(service: KeygenService, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.keygen, {
      guards: [guards.apiKey, guards.idToken, guards.keygenRateLimit],
      handler: (req, res) => service.keygen(verifiedIdentity(res), req.body as KeygenRequest),
    }),
  ];
}
