import { authClaims } from '@svc/auth';
import { defineRoute, field, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { SessionsService } from '../../kernel/sessions/service.js';

export function sessionRoutes(service: SessionsService, guards: TssGuards): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/session/abort',
      summary: 'Abort an active TSS session (any protocol, any step)',
      description: 'The session ends as ABORTED and its stored state, including sealed nonces, is erased. Only the session\u2019s user may abort it.',
      tags: ['signing'],
      guards: [guards.apiKey, guards.userJwt],
      body: { session_id: field.uuid() },
      errors: ['INVALID_API_KEY', 'FORBIDDEN', 'SESSION_NOT_FOUND', 'SESSION_NOT_ACTIVE'],
      response: { type: 'object', required: ['session_id'], properties: { session_id: { type: 'string', format: 'uuid' } } },
      handler: (req, res) => service.abort(req.body.session_id as string, authClaims(res).sub),
    }),
  ];
}
