import { keyshareNode } from '@svc/contract';
import { bindRoute, type Guard, type RouteDef } from '@svc/http';
import type { CommitService } from './service.js';

export function commitRoutes(service: CommitService, rateLimit: Guard): RouteDef[] {
  return [
    bindRoute(keyshareNode.commitIdToken, {
      guards: [rateLimit],
      handler: (req) => service.commit(req.body.id_token_hash, req.body.session_public_key),
    }),
  ];
}
