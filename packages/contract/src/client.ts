/**
 * The contract as a client calls it (`@svc/contract/client`): for each route, its method and
 * path at run time and its whole declaration as a type only, so a client derives the body it
 * sends and the answer it reads from the contract without bundling the rules and descriptions
 * the servers validate and document with.
 */
import { keyshareNodePaths, tssApiPaths } from './paths.js';
import type { RouteContract } from './route-contract.js';
import type { keyshareNode as keyshareNodeContracts } from './keyshare-node/index.js';
import type { tssApi as tssApiContracts } from './tss-api/index.js';

/** A route a client calls: method and path; `contract` exists only in the type, for `BodyOf`/`ResponseOf`. */
export interface ClientRoute<C extends RouteContract> {
  readonly method: C['method'];
  readonly path: C['path'];
  readonly contract?: C;
}

/** The contract a client route stands for. */
export type ContractOf<R> = R extends ClientRoute<infer C> ? C : never;

type ClientRoutes<A extends Record<string, RouteContract>> = { readonly [K in keyof A]: ClientRoute<A[K]> };

/** Every route of tss-api, by the same names as the full `tssApi` of `@svc/contract`. */
export const tssApi: ClientRoutes<typeof tssApiContracts> = tssApiPaths;

/** Every route of a key share node, by the same names as the full `keyshareNode` of `@svc/contract`. */
export const keyshareNode: ClientRoutes<typeof keyshareNodeContracts> = keyshareNodePaths;

export type { BodyOf, ResponseOf, RouteContract } from './route-contract.js';
