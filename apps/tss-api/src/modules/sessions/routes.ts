import { authClaims } from '@svc/auth';
import { tssApi } from '@svc/contract';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { SessionsService } from '../../kernel/sessions/service.js';

export function sessionRoutes(service: SessionsService, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.sessionAbort, {
      guards: [guards.apiKey, guards.userJwt],
      handler: (req, res) => service.abort(req.body.session_id, authClaims(res).sub),
    }),
  ];
}
