import { defineRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import { callerOf } from '../../kernel/caller.js';
import { STEP_ERRORS, stepBody, stepResponseSchema } from '../../kernel/ecdsa/step-route.js';
import type { StepRequest } from '../../kernel/ecdsa/step-errors.js';
import type { EcdsaTriplesService } from './service.js';

export function ecdsaTriplesRoutes(service: EcdsaTriplesService, guards: TssGuards): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/triples',
      summary: 'ECDSA triple generation, one step per call (3 calls per batch)',
      description:
        'Offline preprocessing of two-party ECDSA (docs/api/tss-ecdsa.md). Call 1: `{ msg: triples/1 }` without session_id opens a TRIPLES session; ' +
        'calls 2 and 3: `{ session_id, msg: triples/2 | triples/3 }`. Each answer is `{ session_id, msg: triples/N-reply, done }`; after call 3 ' +
        'the server\u2019s triples are in its pool (sealed). A batch holds at most ECDSA_TRIPLE_BATCH_MAX triples (two per presignature) and a wallet at ' +
        'most ECDSA_TRIPLE_POOL_MAX unused ones (409 PRESIGNATURE_POOL_FULL). A message failing a check: 400 INVALID_PROTOCOL_MESSAGE and the ' +
        'session is aborted. Each later step claims the session\u2019s state before it computes: of concurrent requests for one step (any replica) one is ' +
        'evaluated, the others and replays get 409 SESSION_STATE_CONSUMED having changed nothing. At most TSS_OPEN_SESSIONS_MAX (default 4) open ' +
        'triples/presign runs per wallet (429 TOO_MANY_OPEN_SESSIONS) and TRIPLES_RATE_LIMIT_PER_MINUTE new runs per user (429 RATE_LIMITED). ' +
        'Bearer service JWT and X-API-Key.',
      tags: ['signing'],
      guards: [guards.apiKey, guards.userJwt, guards.triplesRateLimit],
      body: stepBody,
      errors: [...STEP_ERRORS, 'TOO_MANY_OPEN_SESSIONS', 'RATE_LIMITED', 'PROTOCOL_SESSION_REUSED'],
      response: stepResponseSchema(),
      handler: (req, res) => service.step(callerOf(res), req.body as StepRequest),
    }),
  ];
}
