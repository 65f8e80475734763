import type { Request } from 'express';
import type { Location, ValidationChain } from 'express-validator';
import type { JsonSchema } from './route.js';

/** Whether a field may be left out (`optional`) or also sent as JSON null (`nullable`). */
export type Presence = 'required' | 'optional' | 'nullable';

/** A fixed message, or one made from the field's path (`a.b`, `items[0].name`). */
export type Message = string | ((path: string) => string);
type Step = (chain: ValidationChain, location: Location) => ValidationChain;

/**
 * One request field: its checks and its documentation, made by the builders of `field`
 * only. Every field starts with a check of its JSON type that stops the chain, so no
 * later check (isUUID, isIn, a regex...) ever sees an array, an object or a number where
 * it expects a string: express-validator runs its standard validators on each element of
 * an array, so `["<uuid>"]` would otherwise pass as a UUID and reach the database.
 */
export interface Field {
  readonly presence: Presence;
  /** JSON Schema of the field in the OpenAPI document. */
  readonly schema: JsonSchema;
  /** Adds the field's checks to an express-validator chain for its path. */
  readonly build: (chain: ValidationChain, location: Location) => ValidationChain;
  /** The field may be left out. */
  optional(): Field;
  /** The field may be left out or be JSON null. */
  nullable(): Field;
  /** The message when the field is left out (default: `<path> is required`). */
  missing(message: string): Field;
  /** One more check, run on a value already known to have the field's type. */
  check<T = unknown>(test: (value: T, req: Request) => boolean, message: Message): Field;
  /** Adds to the documentation (description, a richer schema); changes no check. */
  describe(extra: JsonSchema): Field;
}

/** The fields of one request location, by path (`a`, `a.b`, `items.*.name`). */
export type Fields = Record<string, Field>;

interface Spec {
  presence: Presence;
  missingMessage?: string;
  schema: JsonSchema;
  /** The JSON type check; query strings and path parameters only ever hold text. */
  isType: (value: unknown, location: Location) => boolean;
  typeMessage: Message;
  steps: Step[];
}

const text = (message: Message, path: string) => (typeof message === 'string' ? message : message(path));

function makeField(spec: Spec): Field {
  const field: Field = {
    presence: spec.presence,
    schema: spec.presence === 'nullable' ? { ...spec.schema, type: [spec.schema.type, 'null'].flat() } : spec.schema,
    build(chain, location) {
      if (spec.presence === 'optional') chain.optional();
      else if (spec.presence === 'nullable') chain.optional({ values: 'null' });
      else chain.exists().withMessage((_v, { path }) => spec.missingMessage ?? `${path} is required`).bail();
      chain
        .custom((value) => spec.isType(value, location))
        .withMessage((_v, { path }) => text(spec.typeMessage, path))
        .bail();
      for (const step of spec.steps) step(chain, location);
      return chain;
    },
    optional: () => makeField({ ...spec, presence: 'optional' }),
    nullable: () => makeField({ ...spec, presence: 'nullable' }),
    missing: (message) => makeField({ ...spec, missingMessage: message }),
    check: (test, message) => makeField({ ...spec, steps: [...spec.steps, checkStep(test as (v: unknown, req: Request) => boolean, message)] }),
    describe: (extra) => makeField({ ...spec, schema: { ...spec.schema, ...extra } }),
  };
  return field;
}

function checkStep(test: (value: unknown, req: Request) => boolean, message: Message): Step {
  return (chain) =>
    chain
      .custom((value, { req }) => test(value, req as Request))
      .withMessage((_v, { path }) => text(message, path))
      .bail();
}

/**
 * Text PostgreSQL can store and UTF-8 can carry: no NUL (text columns refuse it) and no
 * unpaired surrogate (JSON allows "\ud800", UTF-8 has no encoding for it). Every text field
 * checks this right after its type.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const textStep: Step = checkStep((v) => !(v as string).includes('\u0000') && !UNPAIRED_SURROGATE.test(v as string), (p) => `${p} must be valid text (no NUL, no unpaired surrogate)`);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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

function string(options: StringOptions = {}): Field {
  const { min, max, pattern, message } = options;
  const steps: Step[] = [textStep, ...(options.trim ? [(chain: ValidationChain) => chain.trim()] : [])];
  if (min !== undefined || max !== undefined) {
    steps.push(
      checkStep(
        (v) => (v as string).length >= (min ?? 0) && (v as string).length <= (max ?? Infinity),
        message ?? ((p) => (max === undefined ? `${p} must be at least ${min} characters` : min === undefined ? `${p} must be at most ${max} characters` : `${p} must be ${min} to ${max} characters`)),
      ),
    );
  }
  if (pattern) steps.push(checkStep((v) => pattern.test(v as string), message ?? ((p) => `${p} is invalid`)));
  return makeField({
    presence: 'required',
    schema: {
      type: 'string',
      ...(min !== undefined ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
      ...(pattern ? { pattern: pattern.source } : {}),
      ...(options.description ? { description: options.description } : {}),
    },
    isType: (v) => typeof v === 'string',
    typeMessage: options.typeMessage ?? ((p) => `${p} must be a string`),
    steps,
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function int(options: { min?: number; max?: number; description?: string } = {}): Field {
  const min = options.min ?? Number.MIN_SAFE_INTEGER;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  const message = (p: string) => `${p} must be an integer between ${min} and ${max}`;
  return makeField({
    presence: 'required',
    schema: {
      type: 'integer',
      ...(options.min !== undefined ? { minimum: min } : {}),
      ...(options.max !== undefined ? { maximum: max } : {}),
      ...(options.description ? { description: options.description } : {}),
    },
    // A JSON body carries numbers: "5" or true are refused, not coerced. Query strings and
    // path parameters are text, so there the digits are parsed.
    isType: (v, location) => (location === 'body' ? typeof v === 'number' && Number.isInteger(v) : typeof v === 'string' && /^-?\d{1,16}$/.test(v)),
    typeMessage: message,
    steps: [
      (chain, location) => (location === 'body' ? chain : chain.toInt()),
      checkStep((v) => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max, message),
    ],
  });
}

/**
 * The field vocabulary of every route. A string refuses arrays and objects, a number
 * refuses strings, an id is a string UUID, an enum is a string in its set.
 */
export const field = {
  string: (options?: StringOptions) => string(options),
  /** A UUID in its text form: the only shape of an id, so an array of ids never reaches a query. */
  uuid: (options: { message?: string; description?: string } = {}) => {
    const message = options.message ?? ((p: string) => `${p} must be a UUID`);
    return makeField({
      presence: 'required',
      schema: { type: 'string', format: 'uuid', ...(options.description ? { description: options.description } : {}) },
      isType: (v) => typeof v === 'string',
      typeMessage: message,
      steps: [checkStep((v) => UUID.test(v as string), message)],
    });
  },
  /** One of a set of strings. */
  oneOf: (values: readonly string[], options: { message?: string; description?: string } = {}) => {
    const message = options.message ?? ((p: string) => `${p} must be one of ${values.join(', ')}`);
    return makeField({
      presence: 'required',
      schema: { type: 'string', enum: [...values], ...(options.description ? { description: options.description } : {}) },
      isType: (v) => typeof v === 'string',
      typeMessage: message,
      steps: [checkStep((v) => values.includes(v as string), message)],
    });
  },
  /**
   * An email address, trimmed and lower-cased in place: emails are stored and compared
   * that way, so "Ann@X.com" and "ann@x.com" are one account.
   */
  email: (options: { max?: number } = {}) => {
    const max = options.max ?? 254;
    return makeField({
      presence: 'required',
      schema: { type: 'string', format: 'email', maxLength: max },
      isType: (v) => typeof v === 'string',
      typeMessage: (p) => `${p} must be a string`,
      steps: [
        textStep,
        (chain) => chain.trim().toLowerCase(),
        checkStep((v) => (v as string).length <= max, (p) => `${p} must be at most ${max} characters`),
        (chain) => chain.isEmail().withMessage((_v, { path }) => `${path} must be a valid email address`),
      ],
    });
  },
  /** An absolute http(s) URL (a single-label host such as a Kubernetes service name is fine). */
  url: (options: { max?: number; description?: string } = {}) => {
    const max = options.max ?? 2048;
    return makeField({
      presence: 'required',
      schema: { type: 'string', format: 'uri', maxLength: max, ...(options.description ? { description: options.description } : {}) },
      isType: (v) => typeof v === 'string',
      typeMessage: (p) => `${p} must be a string`,
      steps: [
        textStep,
        checkStep((v) => (v as string).length <= max, (p) => `${p} must be at most ${max} characters`),
        (chain) =>
          chain
            .isURL({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
            .withMessage((_v, { path }) => `${path} must be an http or https URL`),
      ],
    });
  },
  int,
  boolean: (options: { description?: string } = {}) =>
    makeField({
      presence: 'required',
      schema: { type: 'boolean', ...(options.description ? { description: options.description } : {}) },
      isType: (v) => typeof v === 'boolean',
      typeMessage: (p) => `${p} must be a boolean`,
      steps: [],
    }),
  /** A JSON object (not an array, not null); `keys` limits the keys it may hold. */
  object: (options: { keys?: readonly string[]; message?: string; description?: string } = {}) => {
    const { keys } = options;
    return makeField({
      presence: 'required',
      schema: { type: 'object', ...(options.description ? { description: options.description } : {}) },
      isType: isPlainObject,
      typeMessage: options.message ?? ((p) => `${p} must be an object`),
      steps: keys
        ? [checkStep((v) => Object.keys(v as object).every((k) => keys.includes(k)), (p) => `${p} may only hold ${keys.join(', ')}`)]
        : [],
    });
  },
  /** A JSON array; its items are declared as `path.*`. */
  array: (options: { min?: number; max?: number; message?: string; description?: string } = {}) => {
    const { min = 0, max = Infinity } = options;
    const message = options.message ?? ((p: string) => `${p} must be an array of ${min} to ${max} items`);
    return makeField({
      presence: 'required',
      schema: {
        type: 'array',
        ...(options.min !== undefined ? { minItems: min } : {}),
        ...(options.max !== undefined ? { maxItems: max } : {}),
        ...(options.description ? { description: options.description } : {}),
      },
      isType: Array.isArray,
      typeMessage: message,
      steps: [checkStep((v) => (v as unknown[]).length >= min && (v as unknown[]).length <= max, message)],
    });
  },
  /** A field that must be left out or be null (a spec field that a route does not use). */
  absent: (message: string) =>
    makeField({ presence: 'nullable', schema: { type: 'null' }, isType: () => false, typeMessage: message, steps: [] }),
};
