import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ERROR_STATUS, isErrorCode, type ErrorCode } from '@svc/envelope';
import { documentedErrors } from '../openapi.js';
import { observeResponses } from '../response-observer.js';
import type { JsonSchema, RouteDef } from '../route.js';

/**
 * Codes any route may answer whatever it declares: the transport's (a body that is not JSON, too
 * large or of another type), the database being down, and the generic 500. Every other error
 * code a test sees must be one its route documents.
 */
const ANY_ROUTE: readonly ErrorCode[] = ['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'REQUEST_TIMEOUT', 'DATABASE_UNAVAILABLE', 'UNKNOWN_ERROR'];

const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['success', 'code', 'msg'],
  additionalProperties: false,
  properties: { success: { const: false }, code: { type: 'string', enum: Object.keys(ERROR_STATUS) }, msg: { type: 'string' } },
};

// ajv and ajv-formats are CommonJS: their default export arrives as the module object under Node's ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/**
 * Checks one answer against its route's declaration: a success against `{success: true, data}`
 * with the route's response schema and status, an error against the error envelope, the status
 * of its code and the codes the route documents. Returns what is wrong, or undefined.
 */
export function responseChecker(): (route: RouteDef, status: number, body: unknown) => string | undefined {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12. Not strict: descriptions and OpenAPI keywords are allowed.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const errorEnvelope = ajv.compile(ERROR_ENVELOPE);
  const successes = new Map<RouteDef, ValidateFunction>();
  const successOf = (route: RouteDef) => {
    let validate = successes.get(route);
    if (!validate) {
      validate = ajv.compile({
        type: 'object',
        required: ['success', 'data'],
        additionalProperties: false,
        properties: { success: { const: true }, data: route.response ?? { type: 'null' } },
      });
      successes.set(route, validate);
    }
    return validate;
  };
  const errorsOf = (validate: ValidateFunction) => ajv.errorsText(validate.errors, { dataVar: 'body' });

  return (route, status, body) => {
    const envelope = typeof body === 'object' && body !== null && 'success' in body ? (body as { success: unknown }) : undefined;
    if (!envelope) {
      // Outside the envelope: only a route that declares no response (a JWKS, a discovery document).
      return route.response ? `answered outside the envelope` : undefined;
    }
    if (envelope.success === true) {
      const expected = route.status ?? 200;
      if (status !== expected) return `success with status ${status}, declared ${expected}`;
      const validate = successOf(route);
      return validate(body) ? undefined : `success does not match the declared response: ${errorsOf(validate)}`;
    }
    if (!errorEnvelope(body)) return `error does not match the error envelope: ${errorsOf(errorEnvelope)}`;
    const { code } = body as { code: string };
    if (!isErrorCode(code)) return `unknown error code ${code}`;
    if (ERROR_STATUS[code] !== status) return `error ${code} with status ${status}, the code's status is ${ERROR_STATUS[code]}`;
    if (!documentedErrors(route).has(code) && !ANY_ROUTE.includes(code)) return `error ${code} is not among the route's documented errors`;
    return undefined;
  };
}

/**
 * For a Jest setup file (`setupFilesAfterEnv`) of an app: every answer any route gives during a
 * test is checked against its declaration (`responseChecker`), and a test in which one does not
 * match fails, naming the route and what is wrong. So documentation cannot drift from behaviour.
 */
export function checkEveryResponse(): void {
  const check = responseChecker();
  const problems: string[] = [];
  beforeAll(() => {
    observeResponses((route, status, body) => {
      const problem = check(route, status, body);
      if (problem) problems.push(`${route.method.toUpperCase()} ${route.path} (${status}): ${problem}`);
    });
  });
  afterEach(() => {
    const found = problems.splice(0);
    if (found.length) throw new Error(`answers that do not match their route's declaration:\n${[...new Set(found)].join('\n')}`);
  });
  afterAll(() => {
    observeResponses(undefined);
    const found = problems.splice(0);
    if (found.length) throw new Error(`answers (after the last test) that do not match their route's declaration:\n${[...new Set(found)].join('\n')}`);
  });
}
