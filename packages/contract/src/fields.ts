import type { JsonSchema } from './json-schema.js';

/** Where a field is read from: the JSON body, the query string or the path. */
export type Location = 'body' | 'query' | 'params';

/** Whether a field may be left out (`optional`) or also sent as JSON null (`nullable`). */
export type Presence = 'required' | 'optional' | 'nullable';

/** A fixed message, or one made from the field's path (`a.b`, `items[0].name`). */
export type Message = string | ((path: string) => string);

/** A check of a value already known to have the field's type; `body` is the whole request body (for checks across fields). */
export type FieldTest<T = unknown> = (value: T, body: Record<string, unknown>) => boolean;

/**
 * One step after the type check, as data. @svc/http turns each into express-validator calls
 * (so the server's behaviour is express-validator's); the contract itself runs nothing.
 */
export type FieldStep =
  | { readonly kind: 'check'; readonly test: FieldTest; readonly message: Message }
  | { readonly kind: 'trim' }
  | { readonly kind: 'lowercase' }
  /** Query strings and path parameters hold text: parse the digits (a JSON body keeps its number). */
  | { readonly kind: 'toInt' }
  | { readonly kind: 'email'; readonly message: Message }
  | { readonly kind: 'httpUrl'; readonly message: Message };

/**
 * One request field, as data: its presence, its JSON type check, the steps that follow and its
 * documentation, made by the builders of `field` only. Every field starts with a check of its
 * JSON type that stops the chain, so no later check (a UUID, an enum, a regex...) ever sees an
 * array, an object or a number where it expects a string: express-validator runs its standard
 * validators on each element of an array, so `["<uuid>"]` would otherwise pass as a UUID and
 * reach the database. `T` is the type a valid value has (the request types come from it).
 */
export interface Field<T = unknown> {
  readonly presence: Presence;
  /** JSON Schema of the field in the OpenAPI document. */
  readonly schema: JsonSchema;
  /** The message when the field is left out (default: `<path> is required`). */
  readonly missingMessage?: string;
  /** The JSON type check; query strings and path parameters only ever hold text. */
  readonly isType: (value: unknown, location: Location) => boolean;
  readonly typeMessage: Message;
  readonly steps: readonly FieldStep[];
  /** The field may be left out. */
  optional(): Field<T | undefined>;
  /** The field may be left out or be JSON null. */
  nullable(): Field<T | null | undefined>;
  /** The message when the field is left out. */
  missing(message: string): Field<T>;
  /** One more check, run on a value already known to have the field's type. */
  check<V = NonNullable<T>>(test: FieldTest<V>, message: Message): Field<T>;
  /** Adds to the documentation (description, a richer schema); changes no check. */
  describe(extra: JsonSchema): Field<T>;
  /** Type only: the value of a valid field (never set). */
  readonly __value?: T;
}

/** The fields of one request location, by path (`a`, `a.b`, `items.*.name`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Field<T>, whatever its T
export type Fields = Record<string, Field<any>>;

/** The type of a valid value of a field. */
export type ValueOf<F> = F extends Field<infer T> ? T : never;

type TopLevel<K> = K extends `${string}.${string}` ? never : K;
type Optional<F, K extends keyof F> = undefined extends ValueOf<F[K]> ? K : never;

/**
 * The request object the top-level fields describe (`a.b` and `items.*` only refine what `a` and
 * `items` declare): a field that may be left out is an optional key.
 */
export type RequestOf<F extends Fields> = {
  [K in keyof F as TopLevel<K> extends never ? never : K extends Optional<F, K> ? never : K]: ValueOf<F[K]>;
} & {
  [K in keyof F as TopLevel<K> extends never ? never : K extends Optional<F, K> ? K : never]?: ValueOf<F[K]>;
};

interface Spec {
  presence: Presence;
  missingMessage?: string;
  schema: JsonSchema;
  isType: (value: unknown, location: Location) => boolean;
  typeMessage: Message;
  steps: FieldStep[];
}

function makeField<T>(spec: Spec): Field<T> {
  return {
    presence: spec.presence,
    schema: spec.presence === 'nullable' ? { ...spec.schema, type: [spec.schema.type, 'null'].flat() } : spec.schema,
    ...(spec.missingMessage !== undefined ? { missingMessage: spec.missingMessage } : {}),
    isType: spec.isType,
    typeMessage: spec.typeMessage,
    steps: spec.steps,
    optional: () => makeField({ ...spec, presence: 'optional' }),
    nullable: () => makeField({ ...spec, presence: 'nullable' }),
    missing: (message) => makeField({ ...spec, missingMessage: message }),
    check: (test, message) => makeField({ ...spec, steps: [...spec.steps, { kind: 'check', test: test as FieldTest, message }] }),
    describe: (extra) => makeField({ ...spec, schema: { ...spec.schema, ...extra } }),
  };
}

const check = (test: FieldTest, message: Message): FieldStep => ({ kind: 'check', test, message });

/**
 * Text PostgreSQL can store and UTF-8 can carry: no NUL (text columns refuse it) and no
 * unpaired surrogate (JSON allows "\ud800", UTF-8 has no encoding for it). Every text field
 * checks this right after its type.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const textStep = check((v) => !(v as string).includes('\u0000') && !UNPAIRED_SURROGATE.test(v as string), (p) => `${p} must be valid text (no NUL, no unpaired surrogate)`);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown) => typeof v === 'string';
const described = (description: string | undefined) => (description ? { description } : {});

export interface StringOptions {
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** Trim surrounding whitespace in place before the length and pattern checks. */
  trim?: boolean;
  /** Message of a failed length or pattern check (default: one per check, naming the field). */
  message?: Message;
  /** Message when the value is not a string (default: `<path> must be a string`). */
  typeMessage?: Message;
  description?: string;
}

function string<T extends string = string>(options: StringOptions = {}): Field<T> {
  const { min, max, pattern, message } = options;
  const steps: FieldStep[] = [textStep, ...(options.trim ? [{ kind: 'trim' } as const] : [])];
  if (min !== undefined || max !== undefined) {
    steps.push(
      check(
        (v) => (v as string).length >= (min ?? 0) && (v as string).length <= (max ?? Infinity),
        message ?? ((p) => (max === undefined ? `${p} must be at least ${min} characters` : min === undefined ? `${p} must be at most ${max} characters` : `${p} must be ${min} to ${max} characters`)),
      ),
    );
  }
  if (pattern) steps.push(check((v) => pattern.test(v as string), message ?? ((p) => `${p} is invalid`)));
  return makeField({
    presence: 'required',
    schema: {
      type: 'string',
      ...(min !== undefined ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
      ...(pattern ? { pattern: pattern.source } : {}),
      ...described(options.description),
    },
    isType: isString,
    typeMessage: options.typeMessage ?? ((p) => `${p} must be a string`),
    steps,
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function int(options: { min?: number; max?: number; description?: string } = {}): Field<number> {
  const min = options.min ?? Number.MIN_SAFE_INTEGER;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  const message = (p: string) => `${p} must be an integer between ${min} and ${max}`;
  return makeField({
    presence: 'required',
    schema: {
      type: 'integer',
      ...(options.min !== undefined ? { minimum: min } : {}),
      ...(options.max !== undefined ? { maximum: max } : {}),
      ...described(options.description),
    },
    // A JSON body carries numbers: "5" or true are refused, not coerced. Query strings and
    // path parameters are text, so there the digits are parsed.
    isType: (v, location) => (location === 'body' ? typeof v === 'number' && Number.isInteger(v) : typeof v === 'string' && /^-?\d{1,16}$/.test(v)),
    typeMessage: message,
    steps: [{ kind: 'toInt' }, check((v) => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max, message)],
  });
}

/**
 * The field vocabulary of every route. A string refuses arrays and objects, a number
 * refuses strings, an id is a string UUID, an enum is a string in its set.
 */
export const field = {
  string,
  /**
   * A UUID in its text form: the only shape of an id, so an array of ids never reaches a query.
   * Lower-cased in place: PostgreSQL compares uuids case-blind, but ids are also bound into
   * sealed material (AAD) and audit rows as text, where "ABC…" and "abc…" differ; one spelling
   * past this point means a row the query finds is also one the service can open.
   */
  uuid: (options: { message?: string; description?: string } = {}): Field<string> => {
    const message = options.message ?? ((p: string) => `${p} must be a UUID`);
    return makeField({
      presence: 'required',
      schema: { type: 'string', format: 'uuid', ...described(options.description) },
      isType: isString,
      typeMessage: message,
      steps: [check((v) => UUID.test(v as string), message), { kind: 'lowercase' }],
    });
  },
  /** One of a set of strings. */
  oneOf: <const V extends string>(values: readonly V[], options: { message?: string; description?: string } = {}): Field<V> => {
    const message = options.message ?? ((p: string) => `${p} must be one of ${values.join(', ')}`);
    return makeField({
      presence: 'required',
      schema: { type: 'string', enum: [...values], ...described(options.description) },
      isType: isString,
      typeMessage: message,
      steps: [check((v) => values.includes(v as V), message)],
    });
  },
  /**
   * An email address, trimmed and lower-cased in place: emails are stored and compared
   * that way, so "Ann@X.com" and "ann@x.com" are one account.
   */
  email: (options: { max?: number } = {}): Field<string> => {
    const max = options.max ?? 254;
    return makeField({
      presence: 'required',
      schema: { type: 'string', format: 'email', maxLength: max },
      isType: isString,
      typeMessage: (p) => `${p} must be a string`,
      steps: [
        textStep,
        { kind: 'trim' },
        { kind: 'lowercase' },
        check((v) => (v as string).length <= max, (p) => `${p} must be at most ${max} characters`),
        { kind: 'email', message: (p) => `${p} must be a valid email address` },
      ],
    });
  },
  /** An absolute http(s) URL (a single-label host such as a Kubernetes service name is fine). */
  url: (options: { max?: number; description?: string } = {}): Field<string> => {
    const max = options.max ?? 2048;
    return makeField({
      presence: 'required',
      schema: { type: 'string', format: 'uri', maxLength: max, ...described(options.description) },
      isType: isString,
      typeMessage: (p) => `${p} must be a string`,
      steps: [
        textStep,
        check((v) => (v as string).length <= max, (p) => `${p} must be at most ${max} characters`),
        { kind: 'httpUrl', message: (p) => `${p} must be an http or https URL` },
      ],
    });
  },
  int,
  boolean: (options: { description?: string } = {}): Field<boolean> =>
    makeField({
      presence: 'required',
      schema: { type: 'boolean', ...described(options.description) },
      isType: (v) => typeof v === 'boolean',
      typeMessage: (p) => `${p} must be a boolean`,
      steps: [],
    }),
  /**
   * A JSON object (not an array, not null); `keys` limits the keys it may hold. `T` is the
   * object's type when its members are declared as `path.member` fields beside it.
   */
  object: <T = Record<string, unknown>>(options: { keys?: readonly string[]; message?: string; description?: string } = {}): Field<T> => {
    const { keys } = options;
    return makeField({
      presence: 'required',
      schema: { type: 'object', ...described(options.description) },
      isType: isPlainObject,
      typeMessage: options.message ?? ((p) => `${p} must be an object`),
      steps: keys ? [check((v) => Object.keys(v as object).every((k) => keys.includes(k)), (p) => `${p} may only hold ${keys.join(', ')}`)] : [],
    });
  },
  /** A JSON array; its items are declared as `path.*`, and `T` is the type of one item. */
  array: <T = unknown>(options: { min?: number; max?: number; message?: string; description?: string } = {}): Field<T[]> => {
    const { min = 0, max = Infinity } = options;
    const message = options.message ?? ((p: string) => `${p} must be an array of ${min} to ${max} items`);
    return makeField({
      presence: 'required',
      schema: {
        type: 'array',
        ...(options.min !== undefined ? { minItems: min } : {}),
        ...(options.max !== undefined ? { maxItems: max } : {}),
        ...described(options.description),
      },
      isType: Array.isArray,
      typeMessage: message,
      steps: [check((v) => (v as unknown[]).length >= min && (v as unknown[]).length <= max, message)],
    });
  },
  /** A field that must be left out or be null (a spec field that a route does not use). */
  absent: (message: string): Field<null | undefined> =>
    makeField({ presence: 'nullable', schema: { type: 'null' }, isType: () => false, typeMessage: message, steps: [] }),
};
