import { authClaims, verifiedIdentity } from '@svc/auth';
import { tssApi } from '@svc/contract';
import type { AuthType } from '@svc/db';
import { bindRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import { mayAskNodes } from '../../kernel/node-check-budget.js';
import type { UsersService } from './service.js';

export function userRoutes(service: UsersService, guards: TssGuards): RouteDef[] {
  return [
    bindRoute(tssApi.userSignin, {
      guards: [guards.apiKey, guards.idToken],
      handler: (_req, res) => service.signin(verifiedIdentity(res)),
    }),
    bindRoute(tssApi.userSigninSilently, {
      guards: [guards.apiKey, guards.refreshableUserJwt],
      handler: (_req, res) => service.signinSilently(authClaims(res)),
    }),
    bindRoute(tssApi.userSignout, {
      guards: [guards.apiKey, guards.userJwt],
      handler: (_req, res) => service.signout(authClaims(res)),
    }),
    bindRoute(tssApi.userCheck, {
      guards: guards.userCheckRateLimits,
      handler: (req, res) => service.check(req.body.email, req.body.auth_type as AuthType | undefined, { askNodes: mayAskNodes(res) }),
    }),
  ];
}
