import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import { callerOf } from '../../kernel/caller.js';
import type { StepRequest } from '../../kernel/ecdsa/step-errors.js';
import type { EcdsaPresignService } from './service.js';

export function ecdsaPresignRoutes(service: EcdsaPresignService, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.ecdsaPresign, {
      guards: [guards.apiKey, guards.userJwt],
      handler: (req, res) => service.step(callerOf(res), req.body as StepRequest),
    }),
  ];
}
