import { ERROR_STATUS } from '@svc/envelope';
import type { ParamSchema } from 'express-validator';
import type { FieldRules, JsonSchema, RouteDef } from './route.js';

/**
 * Derives an OpenAPI 3.1 document from route definitions: the same express-validator rules
 * that validate a request describe it here, so documentation and behaviour cannot drift.
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

/** The documented request body of a route: `bodySchema` when given, else built from its rules and `bodyDocs`. */
export function requestBodySchemaOf(route: RouteDef): JsonSchema | undefined {
  if (route.bodySchema) return route.bodySchema;
  if (!route.body && !route.bodyDocs) return undefined;
  const schema = objectSchemaOf(route.body ?? {}, route.exactBody !== false);
  Object.assign(schema.properties as Record<string, JsonSchema>, route.bodyDocs ?? {});
  return schema;
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
  const codes = new Set(route.errors ?? []);
  if (route.body || route.query || route.params) codes.add('INVALID_REQUEST');
  if (route.guards?.length) codes.add('UNAUTHORIZED');
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
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

function parametersOf(rules: FieldRules | undefined, location: 'path' | 'query'): JsonSchema[] {
  return Object.entries(rules ?? {}).map(([name, rule]) => ({
    name,
    in: location,
    required: location === 'path' || !rule.optional,
    schema: fieldSchemaOf(rule),
  }));
}

/** Builds a nested object schema from dotted field paths (`a.b`, `items.*.name`). */
function objectSchemaOf(rules: FieldRules, exact: boolean): JsonSchema {
  const root: JsonSchema = { type: 'object', properties: {}, required: [] };
  if (exact) root.additionalProperties = false;
  for (const [path, rule] of Object.entries(rules)) {
    const parts = path.split('.');
    let node = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const schema = last ? fieldSchemaOf(rule) : { type: parts[i + 1] === '*' ? 'array' : 'object' };
      if (part === '*') {
        node.items = { ...(node.items as JsonSchema | undefined), ...schema };
        node = node.items as JsonSchema;
        return;
      }
      const props = (node.properties ??= {}) as Record<string, JsonSchema>;
      props[part] = { ...props[part], ...schema };
      if (!rule.optional || !last) {
        const required = (node.required ??= []) as string[];
        if (!required.includes(part) && !(rule.optional && last)) required.push(part);
      }
      node = props[part];
    });
  }
  return root;
}

type Opts = { options?: unknown };

/** Maps the validators of one field to a JSON Schema. */
export function fieldSchemaOf(rule: ParamSchema): JsonSchema {
  const schema: JsonSchema = {};
  const opts = (key: keyof ParamSchema): Record<string, unknown> | undefined => {
    const value = rule[key] as Opts | boolean | undefined;
    if (!value || value === true) return undefined;
    const o = Array.isArray(value.options) ? value.options[0] : value.options;
    return o && typeof o === 'object' ? (o as Record<string, unknown>) : undefined;
  };
  if (rule.isString || rule.isLength || rule.matches || rule.isHexadecimal || rule.isJWT) schema.type = 'string';
  if (rule.isEmail) Object.assign(schema, { type: 'string', format: 'email' });
  if (rule.isUUID) Object.assign(schema, { type: 'string', format: 'uuid' });
  if (rule.isURL) Object.assign(schema, { type: 'string', format: 'uri' });
  if (rule.isISO8601) Object.assign(schema, { type: 'string', format: 'date-time' });
  if (rule.isHexadecimal) schema.pattern = '^[0-9a-fA-F]+$';
  if (rule.isBoolean) schema.type = 'boolean';
  if (rule.isInt) {
    schema.type = 'integer';
    const o = opts('isInt');
    if (o?.min !== undefined) schema.minimum = o.min;
    if (o?.max !== undefined) schema.maximum = o.max;
  }
  if (rule.isFloat || rule.isNumeric) schema.type = schema.type ?? 'number';
  if (rule.isArray) {
    schema.type = 'array';
    const o = opts('isArray');
    if (o?.min !== undefined) schema.minItems = o.min;
    if (o?.max !== undefined) schema.maxItems = o.max;
  }
  if (rule.isObject) schema.type = 'object';
  const len = opts('isLength');
  if (len?.min !== undefined) schema.minLength = len.min;
  if (len?.max !== undefined) schema.maxLength = len.max;
  const isIn = rule.isIn as Opts | undefined;
  if (isIn && Array.isArray(isIn.options)) {
    const values = Array.isArray(isIn.options[0]) ? isIn.options[0] : isIn.options;
    schema.enum = values;
  }
  const matches = rule.matches as Opts | undefined;
  if (matches?.options) {
    const re = Array.isArray(matches.options) ? matches.options[0] : matches.options;
    schema.pattern = re instanceof RegExp ? re.source : String(re);
  }
  return schema;
}
