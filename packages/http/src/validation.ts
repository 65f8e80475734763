import type { Request, RequestHandler } from 'express';
import { buildCheckFunction, validationResult, type Location } from 'express-validator';
import { AppError } from '@svc/envelope';
import { buildChain, type Fields } from './fields.js';
import type { RouteDef } from './route.js';
import { fieldTree, unknownKeys } from './unknown-fields.js';

const DEFAULT_MESSAGE = 'Invalid value';

/**
 * Builds the validator of a route from the same fields its OpenAPI document is generated
 * from. The first failure becomes a 400 INVALID_REQUEST whose msg names the field.
 */
export function validatorFor(route: RouteDef): RequestHandler {
  const buckets: [Location, Fields | undefined][] = [
    ['params', route.params],
    ['query', route.query],
    ['body', route.body],
  ];
  const chains = buckets.flatMap(([location, fields]) => {
    const check = buildCheckFunction([location]);
    return Object.entries(fields ?? {}).map(([path, f]) => buildChain(f, check(path), location));
  });
  const exact = route.exactBody !== false && route.body ? fieldTree(Object.keys(route.body)) : undefined;
  const wantsBody = route.body !== undefined && route.contentType !== 'multipart/form-data';

  return async (req, _res, next) => {
    if (wantsBody) {
      // A body the JSON parser skipped (text/plain, a form...) is not an empty body.
      if (hasContent(req) && !req.is('application/json')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
      if (req.body === undefined) req.body = {};
      if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
        throw new AppError('INVALID_REQUEST', 'Request body must be a JSON object');
      }
    }
    for (const chain of chains) await chain.run(req);
    const [first] = validationResult(req).array({ onlyFirstError: true });
    if (first) throw new AppError('INVALID_REQUEST', messageOf(first));
    const unknown = exact && typeof req.body === 'object' && req.body !== null ? unknownKeys(req.body as Record<string, unknown>, exact) : [];
    if (unknown.length) throw new AppError('INVALID_REQUEST', `Unknown field: ${unknown.join(', ')}`);
    next();
  };
}

/** A request that carries body bytes (type-is counts `Content-Length: 0` as a body). */
function hasContent(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

type FirstError = ReturnType<ReturnType<typeof validationResult>['array']>[number];

function messageOf(error: FirstError): string {
  if (error.type === 'field') {
    return typeof error.msg === 'string' && error.msg !== DEFAULT_MESSAGE ? error.msg : `${error.path} is invalid`;
  }
  return typeof error.msg === 'string' ? error.msg : 'Invalid request';
}
