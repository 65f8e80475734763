import type { RequestHandler } from 'express';
import type { RouteDef } from './route.js';

/** Sees every JSON answer of a route (its status and body) before it is sent. */
export type ResponseObserver = (route: RouteDef, status: number, body: unknown) => void;

let observer: ResponseObserver | undefined;

/**
 * Installs (or, with undefined, removes) the observer of every route's JSON answers, successes
 * and errors alike. Only test harnesses set one (`checkEveryResponse` of @svc/http/testing):
 * in production no answer is wrapped.
 */
export function observeResponses(next: ResponseObserver | undefined): void {
  observer = next;
}

/** First middleware of a route: hands each JSON answer of that route to the observer, if one is installed. */
export function observing(route: RouteDef): RequestHandler {
  return (_req, res, next) => {
    const current = observer;
    if (current) {
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        current(route, res.statusCode, body);
        return json(body);
      };
    }
    next();
  };
}
