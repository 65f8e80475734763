import type { BodyOf, Fields, ResponseOf, RouteContract } from '@svc/contract';
import type { ClientRoute } from '@svc/contract/client';

/** A route the SDK calls: every tss-api route it uses is a JSON POST. */
export type PostRoute = RouteContract & { readonly method: 'post' };

/** The JSON body a route takes as its contract declares it; a route that declares none is sent without a body. */
export type CallBody<C> = C extends { readonly body: Fields } ? BodyOf<C> : undefined;

/** What `call` sends through: HttpClient (options: bearer, signal) or AuthedClient (options: a signal). */
export interface Poster<O> {
  post<T>(path: string, body: unknown, options?: O): Promise<T>;
}

/**
 * Calls one route of the contract: its path, its body type and its answer type all come from
 * the route's declaration (@svc/contract), so a request the SDK sends cannot drift from the
 * fields the server validates, nor an answer from the schema the server's tests check. The route
 * is the client view (`@svc/contract/client`): its path at run time, its declaration as a type.
 */
export function call<C extends PostRoute, O = never>(poster: Poster<O>, route: ClientRoute<C>, body: CallBody<C>, options?: O): Promise<ResponseOf<C>> {
  return options === undefined ? poster.post<ResponseOf<C>>(route.path, body) : poster.post<ResponseOf<C>>(route.path, body, options);
}
