import { keyshareNode } from '@svc/contract';
import { bindRoute, type Guard, type RouteDef } from '@svc/http';
import { callerOf } from '../../kernel/signed-request/guard.js';
import type { KeyShareService } from './service.js';

export function keyshareRoutes(service: KeyShareService, guards: { signed: Guard; userRateLimit: Guard; checkRateLimit: Guard }): RouteDef[] {
  const userGuards = [guards.userRateLimit, guards.signed];
  return [
    bindRoute(keyshareNode.keyshareRegister, {
      guards: userGuards,
      handler: (req, res) => service.register(callerOf(res), { curve: req.body.curve_type, publicKey: req.body.public_key }, req.body.share, req.body.reshare === true),
    }),
    bindRoute(keyshareNode.keyshareFetch, {
      guards: userGuards,
      handler: (req, res) => service.fetch(callerOf(res), { curve: req.body.curve_type, publicKey: req.body.public_key }),
    }),
    bindRoute(keyshareNode.keyshareCheck, {
      guards: [guards.checkRateLimit],
      handler: (req) => service.exists({ curve: req.body.curve_type, publicKey: req.body.public_key }),
    }),
  ];
}
