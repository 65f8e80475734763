import type { Request, RequestHandler, Response } from 'express';
import type { BodyOf, JsonSchema, ResponseOf, RouteContract } from '@svc/contract';
import type { ErrorCode } from '@svc/envelope';

export type { HttpMethod, JsonSchema } from '@svc/contract';

/**
 * An authentication requirement: the middleware that enforces it and the OpenAPI security
 * scheme that documents it, declared together so they cannot disagree.
 */
export interface Guard {
  name: string;
  scheme: JsonSchema;
  middleware: RequestHandler;
  /** The error codes the guard itself answers, documented on every route it guards. */
  errors?: readonly ErrorCode[];
}

/** A route as the server mounts it: its contract (without `auth`, which `guards` enforce) and the code that answers it. */
export interface RouteDef extends Omit<RouteContract, 'auth'> {
  /** All guards must pass (logical AND) before validation runs: bearer-token guards first, then the others, each in order (see tokenFirst). */
  guards?: Guard[];
  /** Middleware that runs after the guards and before validation (e.g. multer). */
  before?: RequestHandler[];
  /** Returns the envelope's `data`; throw AppError for failures. */
  handler: (req: Request, res: Response) => unknown;
}

/** Identity function that gives route literals their type. */
export function defineRoute(route: RouteDef): RouteDef {
  return route;
}

/** What answers a contract: its guards (named as the contract's `auth`) and a handler returning the contract's response. */
export interface RouteImpl<C extends RouteContract> {
  guards?: Guard[];
  before?: RequestHandler[];
  /** Returns the envelope's `data` as the contract declares it; throw AppError for failures. */
  handler: (req: Request<Record<string, string>, unknown, BodyOf<C>>, res: Response) => C extends { response: unknown } ? ResponseOf<C> | Promise<ResponseOf<C>> : unknown;
}

/**
 * Binds a contract of @svc/contract to the guards and the handler that serve it. The guards
 * must be exactly those the contract names (checked here, at start-up), and the handler's
 * return type is checked against the contract's response schema at compile time.
 */
export function bindRoute<C extends RouteContract>(contract: C, impl: RouteImpl<C>): RouteDef {
  const { auth = [], ...rest } = contract;
  const names = (impl.guards ?? []).map((g) => g.name);
  if (names.length !== auth.length || auth.some((name) => !names.includes(name))) {
    throw new Error(`${contract.method.toUpperCase()} ${contract.path}: guards [${names.join(', ')}] are not the contract's [${auth.join(', ')}]`);
  }
  return { ...rest, guards: impl.guards, before: impl.before, handler: impl.handler as RouteDef['handler'] };
}
