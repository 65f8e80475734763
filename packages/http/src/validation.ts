import type { RequestHandler } from 'express';
import { checkExact, checkSchema, validationResult, type Location } from 'express-validator';
import { AppError } from '@svc/envelope';
import type { FieldRules, RouteDef } from './route.js';

const DEFAULT_MESSAGE = 'Invalid value';

/**
 * Builds the validator of a route from the same rules its OpenAPI document is generated
 * from. The first failure becomes a 400 INVALID_REQUEST whose msg names the field.
 */
export function validatorFor(route: RouteDef): RequestHandler {
  const buckets: [Location, FieldRules | undefined][] = [
    ['params', route.params],
    ['query', route.query],
    ['body', route.body],
  ];
  const chains = buckets.flatMap(([location, rules]) => (rules ? checkSchema(rules, [location]) : []));
  const exact = route.exactBody !== false && route.body ? [checkExact(chains, { locations: ['body'] })] : [];
  const wantsBody = route.body !== undefined && route.contentType !== 'multipart/form-data';

  return async (req, _res, next) => {
    if (wantsBody) {
      if (req.body === undefined) req.body = {};
      if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
        throw new AppError('INVALID_REQUEST', 'Request body must be a JSON object');
      }
    }
    for (const chain of [...chains, ...exact]) await chain.run(req);
    const [first] = validationResult(req).array({ onlyFirstError: true });
    if (first) throw new AppError('INVALID_REQUEST', messageOf(first));
    next();
  };
}

type FirstError = ReturnType<ReturnType<typeof validationResult>['array']>[number];

function messageOf(error: FirstError): string {
  if (error.type === 'unknown_fields') {
    return `Unknown field: ${error.fields.map((f) => f.path).join(', ')}`;
  }
  if (error.type === 'field') {
    return typeof error.msg === 'string' && error.msg !== DEFAULT_MESSAGE ? error.msg : `${error.path} is invalid`;
  }
  return typeof error.msg === 'string' ? error.msg : 'Invalid request';
}
