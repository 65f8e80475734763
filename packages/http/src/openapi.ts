import { requestBodySchemaOf } from '@svc/contract';
import { ERROR_STATUS, type ErrorCode } from '@svc/envelope';
import type { Fields } from './fields.js';
import type { JsonSchema, RouteDef } from './route.js';

/**
 * Derives an OpenAPI 3.1 document from route definitions: the same fields that validate a
 * request describe it here, so documentation and behaviour cannot drift.
 */
export function buildOpenApi(info: { title: string; version: string; description?: string }, routes: RouteDef[]): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const securitySchemes: Record<string, JsonSchema> = {};
  for (const route of routes) {
    for (const guard of route.guards ?? []) securitySchemes[guard.name] = guard.scheme;
    const item = (paths[toOpenApiPath(route.path)] ??= {});
    item[route.method] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      securitySchemes,
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['success', 'code', 'msg'],
          properties: {
            success: { const: false },
            code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
            msg: { type: 'string' },
          },
        },
      },
    },
  };
}

/** `/a/:id` -> `/a/{id}` */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operationOf(route: RouteDef): JsonSchema {
  const parameters = [
    ...parametersOf(route.params, 'path'),
    ...parametersOf(route.query, 'query'),
  ];
  const op: JsonSchema = {
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.tags ? { tags: route.tags } : {}),
    operationId: `${route.method}_${route.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    ...(parameters.length ? { parameters } : {}),
    responses: responsesOf(route),
  };
  if (route.guards?.length) op.security = [Object.fromEntries(route.guards.map((g) => [g.name, []]))];
  const schema = requestBodySchemaOf(route);
  if (schema) {
    op.requestBody = {
      required: route.bodySchema !== undefined || (Array.isArray(schema.required) && schema.required.length > 0),
      content: { [route.contentType ?? 'application/json']: { schema } },
    };
  }
  return op;
}

function responsesOf(route: RouteDef): JsonSchema {
  const responses: Record<string, JsonSchema> = {
    [String(route.status ?? 200)]: {
      description: 'Success',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['success', 'data'],
            properties: { success: { const: true }, data: route.response ?? { type: 'null' } },
          },
        },
      },
    },
  };
  const byStatus = new Map<number, string[]>();
  for (const code of documentedErrors(route)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, list] of byStatus) {
    responses[String(status)] = {
      description: list.join(', '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return responses;
}

/** The error codes a route's document lists: its own, and those its fields and guards imply. */
export function documentedErrors(route: RouteDef): Set<ErrorCode> {
  const codes = new Set(route.errors ?? []);
  if (route.body || route.query || route.params) codes.add('INVALID_REQUEST');
  if (route.guards?.length) codes.add('UNAUTHORIZED');
  for (const guard of route.guards ?? []) for (const code of guard.errors ?? []) codes.add(code);
  return codes;
}

function parametersOf(fields: Fields | undefined, location: 'path' | 'query'): JsonSchema[] {
  return Object.entries(fields ?? {}).map(([name, f]) => ({
    name,
    in: location,
    required: location === 'path' || f.presence === 'required',
    schema: f.schema,
  }));
}
