import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import { callerOf } from '../../kernel/caller.js';
import type { StepRequest } from '../../kernel/ecdsa/step-errors.js';
import type { EcdsaTriplesService } from './service.js';

export function ecdsaTriplesRoutes(service: EcdsaTriplesService, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.ecdsaTriples, {
      guards: [guards.apiKey, guards.userJwt, guards.triplesRateLimit],
      handler: (req, res) => service.step(callerOf(res), req.body as StepRequest),
    }),
  ];
}
