/** A JSON Schema fragment, as OpenAPI 3.1 uses it. */
export type JsonSchema = Record<string, unknown>;

/**
 * The TypeScript type of the values a JSON Schema accepts, for the part of JSON Schema the
 * contracts use (type, properties/required, items, enum, const, oneOf, anyOf); an object
 * schema without properties is any `object`. A response type is
 * derived from its schema this way, so the server's handlers, the SDK and the document
 * cannot disagree about it. Without `as const` on the schema it degrades to `unknown`.
 */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly oneOf: readonly (infer O)[] } | { readonly anyOf: readonly (infer O)[] }
      ? O extends unknown
        ? FromSchema<O>
        : never
      : S extends { readonly type: readonly (infer T)[] }
        ? T extends unknown
          ? FromSchema<Omit<S, 'type'> & { readonly type: T }>
          : never
        : S extends { readonly type: 'object' }
          ? ObjectOf<S>
          : S extends { readonly type: 'array' }
            ? S extends { readonly items: infer I }
              ? FromSchema<I>[]
              : unknown[]
            : S extends { readonly type: 'string' }
              ? string
              : S extends { readonly type: 'integer' | 'number' }
                ? number
                : S extends { readonly type: 'boolean' }
                  ? boolean
                  : S extends { readonly type: 'null' }
                    ? null
                    : unknown;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type ObjectOf<S> = S extends { readonly properties: infer P }
  ? Flat<
      { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: FromSchema<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: FromSchema<P[K]>;
      }
    >
  : object;

type Flat<T> = { [K in keyof T]: T[K] };
