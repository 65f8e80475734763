import { defineRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import { callerOf } from '../../kernel/caller.js';
import { STEP_ERRORS, stepBody, stepResponseSchema } from '../../kernel/ecdsa/step-route.js';
import type { StepRequest } from '../../kernel/ecdsa/step-errors.js';
import type { EcdsaPresignService } from './service.js';

export function ecdsaPresignRoutes(service: EcdsaPresignService, guards: TssGuards): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/presign',
      summary: 'ECDSA presign, one step per call (2 calls for a batch of presignatures)',
      description:
        'Call 1: `{ msg: presign/1 }` (no session_id) names 2\u00b7M triples of this wallet by (session_id, index); the server marks exactly those ' +
        'rows consumed in one conditional update (all or nothing) and commits that before it computes presign/1-reply. Call 2: ' +
        '`{ session_id, msg: presign/2 }` answers presign/2-reply with done: true and `presignature_ids` (element i = protocol index i); the ' +
        'server\u2019s halves are in its pool, sealed. At most ECDSA_PRESIGNATURE_POOL_MAX unused presignatures per wallet (409 ' +
        'PRESIGNATURE_POOL_FULL). Triples that are unknown, another wallet\u2019s or already consumed: 400 INVALID_PROTOCOL_MESSAGE, nothing consumed.',
      tags: ['signing'],
      guards: [guards.apiKey, guards.userJwt],
      body: stepBody,
      errors: [...STEP_ERRORS, 'TOO_MANY_OPEN_SESSIONS'],
      response: stepResponseSchema({
        presignature_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, description: 'after the last step: pool ids, by protocol index' },
      }),
      handler: (req, res) => service.step(callerOf(res), req.body as StepRequest),
    }),
  ];
}
