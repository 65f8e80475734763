import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import { callerOf } from '../../kernel/caller.js';
import type { EcdsaSignService } from './service.js';

export function ecdsaSignRoutes(service: EcdsaSignService, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.ecdsaSign, {
      guards: [guards.apiKey, guards.userJwt],
      handler: async (req, res) => {
        const answer = await service.step1(callerOf(res), req.body.msg, req.body.msgs_1);
        // With the client's share, step 1 answers the verified signature or throws.
        if (!answer.sign_output) throw new Error('ECDSA sign in one call answered no signature');
        return { ...answer, sign_output: answer.sign_output };
      },
    }),
    bindRoute(tssApi.ecdsaSignStep1, {
      guards: [guards.apiKey, guards.userJwt],
      handler: (req, res) => service.step1(callerOf(res), req.body.msg, req.body.msgs_1, req.body.session_id ?? undefined),
    }),
    bindRoute(tssApi.ecdsaSignStep2, {
      guards: [guards.apiKey, guards.userJwt],
      handler: (req, res) => service.step2(callerOf(res), req.body.session_id, req.body.msg, req.body.msgs_1),
    }),
  ];
}
