import type { ErrorCode } from '@svc/envelope';
import type { Fields, RequestOf, ValueOf } from './fields.js';
import type { FromSchema, JsonSchema } from './json-schema.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * What a route is, for the server and for its clients alike: everything but the code that
 * answers it. @svc/http binds a contract to guards and a handler (`bindRoute`), builds its
 * validation and its OpenAPI operation from it; the SDK takes its path and its types.
 */
export interface RouteContract {
  method: HttpMethod;
  /** Express path, e.g. `/tss/v1/user/check` or `/customer/get_customer/:customer_id`. */
  path: string;
  summary: string;
  description?: string;
  tags?: readonly string[];
  /**
   * The guards the route runs, by name (the name of each `Guard` and of its OpenAPI security
   * scheme): credentials (`apiKey`, `userJwt`, `idToken`) and rate limits. Binding a route
   * with other guards fails at start-up.
   */
  auth?: readonly string[];
  /** Fields built with `field` (fields.ts): they validate the request and document it. */
  body?: Fields;
  query?: Fields;
  params?: Fields;
  /** Reject body fields the rules do not name (default true). */
  exactBody?: boolean;
  /** Request body content type; multipart routes bring their own parser. */
  contentType?: 'application/json' | 'multipart/form-data';
  /** Documentation of what fields cannot declare (e.g. uploaded files, nested wire objects). */
  bodyDocs?: Record<string, JsonSchema>;
  /** The whole documented request body, for a route whose body has several shapes its handler tells apart. */
  bodySchema?: JsonSchema;
  /** Schema of the envelope's `data` on success; a route without one answers outside the envelope or with null. */
  response?: JsonSchema;
  /** Success status (default 200). */
  status?: number;
  /** Error codes this route may answer with, for the documentation. */
  errors?: readonly ErrorCode[];
}

/**
 * Gives a contract literal its type, keeping its literal types (`const`): the response type
 * is derived from the schema as written. A nested object or array field declared with its type
 * (`field.object<T>()`, `field.array<T>()`) must agree with the fields declared under it
 * (`a.b`, `a.*.b`): same members, same types, optional exactly where the rules let them be
 * left out; otherwise the contract does not compile.
 */
export function defineContract<const C extends RouteContract>(contract: C & NestedFieldsAgree<C>): C {
  return contract;
}

/** `unknown` when every typed nested field agrees with the fields under it, else an error naming the ones that do not. */
type NestedFieldsAgree<C> = C extends { readonly body: infer F extends Fields }
  ? [Disagreeing<F>] extends [never]
    ? unknown
    : { 'nested field types disagree with the fields declared under them': Disagreeing<F> }
  : unknown;

/** The top-level fields whose declared type is not what the fields under them describe. */
type Disagreeing<F extends Fields> = {
  [K in keyof F & string]: K extends `${string}.${string}` ? never : Agrees<NonNullable<ValueOf<F[K]>>, F, K> extends true ? never : K;
}[keyof F & string];

type Agrees<T, F extends Fields, K extends string> = T extends readonly (infer E)[]
  ? Described<F, `${K}.*`> extends infer D
    ? keyof D extends never
      ? true
      : Same<E, D>
    : never
  : Described<F, K> extends infer D
    ? keyof D extends never
      ? true
      : Same<T, D>
    : never;

/** The object the fields directly under `prefix` describe (`prefix.name`, not deeper). */
type Described<F extends Fields, P extends string> = RequestOf<{
  [Q in keyof F & string as Q extends `${P}.${infer M}` ? (M extends `${string}.${string}` | '*' ? never : M) : never]: F[Q];
}>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The envelope's `data` of a successful answer. */
export type ResponseOf<C> = C extends { readonly response: infer S } ? FromSchema<S> : unknown;

/** The JSON body a route takes. */
export type BodyOf<C> = C extends { readonly body: infer F extends Fields } ? RequestOf<F> : Record<string, never>;

/** The documented request body of a route: `bodySchema` when given, else built from its fields and `bodyDocs`. */
export function requestBodySchemaOf(route: RouteContract): JsonSchema | undefined {
  if (route.bodySchema) return route.bodySchema;
  if (!route.body && !route.bodyDocs) return undefined;
  const schema = objectSchemaOf(route.body ?? {}, route.exactBody !== false);
  Object.assign(schema.properties as Record<string, JsonSchema>, route.bodyDocs ?? {});
  return schema;
}

/** Builds a nested object schema from dotted field paths (`a.b`, `items.*.name`). */
function objectSchemaOf(fields: Fields, exact: boolean): JsonSchema {
  const root: JsonSchema = { type: 'object', properties: {}, required: [] };
  if (exact) root.additionalProperties = false;
  for (const [path, f] of Object.entries(fields)) {
    const optional = f.presence !== 'required';
    const parts = path.split('.');
    let node = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const schema = last ? f.schema : { type: parts[i + 1] === '*' ? 'array' : 'object' };
      if (part === '*') {
        node.items = { ...(node.items as JsonSchema | undefined), ...schema };
        node = node.items as JsonSchema;
        return;
      }
      const props = (node.properties ??= {}) as Record<string, JsonSchema>;
      // A parent declared as a field keeps its own type; its children only add properties.
      props[part] = last ? { ...props[part], ...schema } : { ...schema, ...props[part] };
      // A required child makes every parent on its path required too (it cannot exist without them).
      if (!optional) {
        const required = (node.required ??= []) as string[];
        if (!required.includes(part)) required.push(part);
      }
      node = props[part];
    });
  }
  return root;
}
