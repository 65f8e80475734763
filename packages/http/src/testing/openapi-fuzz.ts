import http from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { ERROR_STATUS } from '@svc/envelope';
import type { JsonSchema } from '../route.js';
import { hostileHeaders, hostilePathSegment, hostileValue, type Encoding } from './hostile.js';

/**
 * A property-based fuzz campaign over every operation of an app's OpenAPI document: since
 * the document is generated from the mounted routes, a route added later is fuzzed too.
 * Each request starts from a valid-looking request (real credentials, values of the
 * documented types, known ids) and breaks some of it: hostile values per field, missing and
 * unknown fields, hostile path parameters, query strings and headers. The property: every
 * answer is a 4xx in the envelope with a code of that status, or a documented 2xx in the
 * envelope; never a 5xx, never a dropped connection.
 */

export interface FuzzOptions {
  baseUrl: string;
  openapi: JsonSchema;
  /** Headers that satisfy each security scheme of the document, by scheme name. */
  credentials: Record<string, () => Record<string, string> | Promise<Record<string, string>>>;
  /** Adds headers computed over the final request (a key share node's request signature). */
  sign?: (req: { method: string; path: string; body: Buffer }) => Record<string, string> | Promise<Record<string, string>>;
  /** Real values of fields and path parameters by name (ids that exist), so requests get past "not found". */
  known?: Record<string, unknown[]>;
  /** Operations (`METHOD /openapi/path`) whose 2xx answer is not the envelope by design (JWKS, an upstream's document). */
  rawSuccess?: string[];
  /**
   * Secret-bearing tables: a digest of each, taken before and after every request, and the
   * operations allowed to change each. Any other operation that changes one is reported.
   */
  tables?: { digest: () => Promise<Record<string, string>>; writers: Record<string, string[]> };
  /** Operations left out (`METHOD /openapi/path`), e.g. /metrics. */
  skip?: string[];
  runs: number;
  seed: number;
}

export interface FuzzSample {
  request: string;
  status: number | 'no answer';
  answer: string;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<string, number>;
  /** 5xx answers and requests without an answer (connection reset, timeout). */
  serverErrors: number;
  /** Answers that are not the envelope, a 4xx whose code has another status, an undocumented 2xx. */
  outsideEnvelope: number;
  /** Requests that changed a secret-bearing table they may not write. */
  tableChanges: number;
  /** The first of each kind, to reproduce them. */
  samples: FuzzSample[];
  /** Operations (`METHOD /openapi/path`) that answered a 2xx at least once. */
  succeeded: Set<string>;
  operations: string[];
  /** Milliseconds spent per operation (request and table digests). */
  timeByOperation: Record<string, number>;
}

interface Operation {
  key: string;
  method: string;
  path: string;
  op: JsonSchema;
  successStatuses: Set<number>;
}

interface FuzzRequest {
  operation: Operation;
  path: string;
  query: string;
  body: Buffer | undefined;
  bodyText: string;
  headers: Record<string, string>;
  auth: 'valid' | 'none' | 'garbage';
}

const MAX_SAMPLES = 20;

export async function fuzzOpenApi(options: FuzzOptions): Promise<FuzzReport> {
  const operations = operationsOf(options.openapi).filter((o) => !(options.skip ?? []).includes(o.key));
  const report: FuzzReport = { requests: 0, byStatus: {}, serverErrors: 0, outsideEnvelope: 0, tableChanges: 0, samples: [], succeeded: new Set(), operations: operations.map((o) => o.key), timeByOperation: {} };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const arb = fc.constantFrom(...operations).chain((operation) => requestOf(operation, options));
  try {
    await fc.assert(
      fc.asyncProperty(arb, async (req) => {
        await send(req, options, agent, report);
        return true;
      }),
      { numRuns: options.runs, seed: options.seed, endOnFailure: true },
    );
  } finally {
    agent.destroy();
  }
  return report;
}

/** A one-line summary for the test output: figures a reader can compare between runs. */
export function describeReport(report: FuzzReport): string {
  const statuses = Object.entries(report.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  return `${report.requests} requests over ${report.operations.length} operations; ${report.serverErrors} x 5xx or no answer; ${report.outsideEnvelope} outside the envelope; ${report.tableChanges} unexpected table changes; statuses {${statuses}}`;
}

function operationsOf(openapi: JsonSchema): Operation[] {
  const paths = openapi.paths as Record<string, Record<string, JsonSchema>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      op,
      successStatuses: new Set(Object.keys((op.responses ?? {}) as object).map(Number).filter((s) => s >= 200 && s < 300)),
    })),
  );
}

function requestOf(operation: Operation, options: FuzzOptions): fc.Arbitrary<FuzzRequest> {
  const known = options.known ?? {};
  const params = (operation.op.parameters ?? []) as { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = ((operation.op.requestBody as JsonSchema | undefined)?.content as Record<string, { schema: JsonSchema }> | undefined)?.['application/json']
    ?.schema;

  const pathArb = fc
    .tuple(...pathParams.map((p) => fc.oneof({ weight: 4, arbitrary: validOf(p.schema, p.name, known).map((v) => encodeURIComponent(String(v))) }, { weight: 1, arbitrary: hostilePathSegment() })))
    .map((values) => pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, values[i]!), operation.path));

  const queryArb = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.oneof(
          { weight: 3, arbitrary: fc.option(validOf(p.schema, p.name, known).map((v) => [`${p.name}=${encodeURIComponent(String(v))}`])) },
          { weight: 1, arbitrary: hostileValue(fc.constant('1')).map((v) => [`${p.name}=${encodeURIComponent(JSON.stringify(v) ?? '')}`, `${p.name}=2`]) },
        ),
      ),
    )
    .map((parts) => parts.flatMap((p) => p ?? []).join('&'));

  const bodyArb: fc.Arbitrary<string | undefined> = bodySchema
    ? fc.oneof(
        { weight: 8, arbitrary: mutatedBody(bodySchema, known).map(stringify) },
        { weight: 1, arbitrary: fc.constantFrom('{"a":', '[]', 'null', '"x"', '1', '', '{}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', '[' .repeat(2000) + ']'.repeat(2000)) },
      )
    : fc.option(fc.constantFrom('{}', '{"x":1}', '[]', 'not json'), { freq: 3 }).map((v) => v ?? undefined);

  return fc
    .record({
      path: pathArb,
      query: queryArb,
      bodyText: bodyArb,
      headers: hostileHeaders(),
      auth: fc.constantFrom<'valid' | 'none' | 'garbage'>('valid', 'valid', 'valid', 'valid', 'valid', 'valid', 'none', 'garbage'),
    })
    .map(({ path, query, bodyText, headers, auth }) => {
      const { contentType, encoding, extra } = headers;
      const raw = bodyText === undefined ? undefined : Buffer.from(bodyText);
      const body = raw === undefined ? undefined : encode(raw, encoding);
      const h: Record<string, string> = { ...extra };
      if (body !== undefined && contentType !== undefined) h['content-type'] = contentType;
      if (body !== undefined && encoding.header) h['content-encoding'] = encoding.header;
      return { operation, path, query, body, bodyText: bodyText ?? '', headers: h, auth };
    });
}

function encode(raw: Buffer, encoding: Encoding): Buffer {
  if (!encoding.compress) return raw;
  if (encoding.compress === 'gzip') return gzipSync(raw);
  if (encoding.compress === 'deflate') return deflateSync(raw);
  return brotliCompressSync(raw);
}

/** JSON text of a generated body; `__proto__` keys are kept as own properties by the generators. */
function stringify(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** A valid value of a documented type; known values of a field by name come first. */
export function validOf(schema: JsonSchema | undefined, name: string, known: Record<string, unknown[]>): fc.Arbitrary<unknown> {
  const own = known[name];
  const fromSchema = schemaValue(schema ?? {}, known);
  return own?.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: fromSchema }) : fromSchema;
}

function schemaValue(schema: JsonSchema, known: Record<string, unknown[]>): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as JsonSchema[]).map((s) => schemaValue(s, known)));
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'string': {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = Math.min((schema.maxLength as number | undefined) ?? 64, Math.max(min, 64));
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'uri') return fc.webUrl();
      if (typeof schema.pattern === 'string') return patternValue(schema.pattern, min, max);
      return fc.string({ minLength: min, maxLength: max });
    }
    case 'integer':
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 1_000_000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const min = (schema.minItems as number | undefined) ?? 0;
      const max = Math.min((schema.maxItems as number | undefined) ?? 3, Math.max(min, 3));
      return fc.array(schemaValue((schema.items as JsonSchema | undefined) ?? {}, known), { minLength: min, maxLength: max });
    }
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      if (!Object.keys(props).length) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const entries = Object.entries(props).map(([k, s]) => [k, validOf(s, k, known)] as const);
      return fc.record(Object.fromEntries(entries), { requiredKeys: [...required].filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function patternValue(pattern: string, min: number, max: number): fc.Arbitrary<string> {
  try {
    // Bounded repetition keeps generated values small even for `{2,512}` patterns.
    return fc.stringMatching(new RegExp(pattern.replace(/\{(\d+),(\d{3,})\}/g, '{$1,40}'))).filter((s) => s.length >= min || s.length <= max);
  } catch {
    return fc.string({ minLength: min, maxLength: max });
  }
}

type Mutation = { kind: 'set'; path: string[]; value: unknown } | { kind: 'delete'; path: string[] } | { kind: 'unknown'; path: string[]; key: string; value: unknown };

/** A valid body with 0 to 3 of its fields broken, removed, or joined by unknown ones. */
function mutatedBody(schema: JsonSchema, known: Record<string, unknown[]>): fc.Arbitrary<unknown> {
  const fields = fieldPaths(schema, []);
  const base = schemaValue(schema, known);
  if (!fields.length) return fc.oneof(base, fc.dictionary(fc.string({ maxLength: 8 }), hostileValue(fc.constant('x')), { maxKeys: 2 }));
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...fields).chain(([path, s]) => hostileValue(validOf(s, path.at(-1)!, known)).map((value) => ({ kind: 'set' as const, path, value }))) },
    { weight: 2, arbitrary: fc.constantFrom(...fields).map(([path]) => ({ kind: 'delete' as const, path })) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('unknown' as const),
        path: fc.constantFrom<string[]>([], ...fields.filter(([, s]) => s.type === 'object').map(([p]) => p)),
        key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'extra', ''), fc.string({ maxLength: 12 })),
        value: hostileValue(fc.constant(1)),
      }),
    },
  );
  return fc.tuple(base, fc.array(mutation, { maxLength: 3 })).map(([body, mutations]) => {
    const copy = structuredClone(body);
    for (const m of mutations) apply(copy, m);
    return copy;
  });
}

function fieldPaths(schema: JsonSchema, prefix: string[]): [string[], JsonSchema][] {
  if (prefix.length > 2 || schema.type !== 'object') return [];
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).flatMap(([k, s]) => [[[...prefix, k], s] as [string[], JsonSchema], ...fieldPaths(s, [...prefix, k])]);
}

function apply(target: unknown, m: Mutation): void {
  const parentPath = m.kind === 'unknown' ? m.path : m.path.slice(0, -1);
  let node = target;
  for (const part of parentPath) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  if (!node || typeof node !== 'object' || Array.isArray(node)) return;
  const obj = node as Record<string, unknown>;
  const key = m.kind === 'unknown' ? m.key : m.path.at(-1)!;
  if (m.kind === 'delete') delete obj[key];
  // defineProperty, not assignment: `obj.__proto__ = v` would set the prototype, not a key.
  else Object.defineProperty(obj, key, { value: m.value, enumerable: true, writable: true, configurable: true });
}

async function send(req: FuzzRequest, options: FuzzOptions, agent: http.Agent, report: FuzzReport): Promise<void> {
  const url = new URL(options.baseUrl);
  const path = req.query ? `${req.path}?${req.query}` : req.path;
  const headers: Record<string, string> = { ...req.headers };
  const security = (req.operation.op.security ?? []) as Record<string, unknown>[];
  if (req.auth !== 'none') {
    for (const scheme of Object.keys(security[0] ?? {})) {
      const made = await options.credentials[scheme]?.();
      for (const [k, v] of Object.entries(made ?? {})) headers[k] = req.auth === 'valid' ? v : garble(v);
    }
    if (options.sign) {
      const signed = await options.sign({ method: req.operation.method, path, body: Buffer.from(req.bodyText) });
      for (const [k, v] of Object.entries(signed)) headers[k] = req.auth === 'valid' ? v : garble(v);
    }
  }
  const started = performance.now();
  const before = await options.tables?.digest();
  const described = `${req.operation.method} ${path.slice(0, 300)} ${JSON.stringify(req.headers)} ${req.bodyText.slice(0, 300)}`;
  const answer = await exchange(url, { method: req.operation.method, path, headers: req.body ? { ...headers, 'content-length': String(req.body.length) } : headers, agent }, req.body);
  report.requests++;
  const finish = () => (report.timeByOperation[req.operation.key] = (report.timeByOperation[req.operation.key] ?? 0) + performance.now() - started);
  if (before && options.tables) {
    const after = await options.tables.digest();
    const changed = Object.keys(after).filter((t) => after[t] !== before[t] && !(options.tables!.writers[t] ?? []).includes(req.operation.key));
    if (changed.length) {
      report.tableChanges++;
      keep(report, { request: described, status: 'error' in answer ? 'no answer' : answer.status, answer: `changed ${changed.join(', ')}` });
    }
  }
  if ('error' in answer) {
    report.byStatus['no answer'] = (report.byStatus['no answer'] ?? 0) + 1;
    report.serverErrors++;
    keep(report, { request: described, status: 'no answer', answer: answer.error });
    finish();
    return;
  }
  report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
  const sample = { request: described, status: answer.status, answer: answer.text.slice(0, 500) };
  if (answer.status >= 500) {
    report.serverErrors++;
    keep(report, sample);
  }
  const problem = envelopeProblem(req.operation, answer.status, answer.text, options.rawSuccess ?? []);
  if (problem) {
    report.outsideEnvelope++;
    keep(report, { ...sample, answer: `${problem}: ${sample.answer}` });
  } else if (answer.status < 300) report.succeeded.add(req.operation.key);
  finish();
}

/**
 * One request and its answer. A keep-alive socket the server closed just as it was reused
 * fails with ECONNRESET before the request reached the server: that one is sent again on a
 * new socket (Node's documented pattern); any other failure counts as no answer.
 */
function exchange(url: URL, options: { method: string; path: string; headers: Record<string, string>; agent: http.Agent }, body: Buffer | undefined, retried = false): Promise<{ status: number; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const r = http.request({ host: url.hostname, port: url.port, timeout: 30_000, ...options }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', (e) => resolve({ error: String(e) }));
    });
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', (e: Error & { code?: string }) => {
      if (r.reusedSocket && e.code === 'ECONNRESET' && !retried) resolve(exchange(url, options, body, true));
      else resolve({ error: String(e) });
    });
    r.end(body);
  });
}

function envelopeProblem(operation: Operation, status: number, text: string, rawSuccess: string[]): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const b = body as { success?: unknown; data?: unknown; code?: unknown; msg?: unknown };
  if (status >= 200 && status < 300) {
    if (!operation.successStatuses.has(status)) return `undocumented ${status}`;
    if (rawSuccess.includes(operation.key)) return undefined;
    return b.success === true && 'data' in (b as object) ? undefined : '2xx without the success envelope';
  }
  if (status >= 400 && status < 500) {
    if (b.success !== false || typeof b.code !== 'string' || typeof b.msg !== 'string') return '4xx without the error envelope';
    const expected = (ERROR_STATUS as Record<string, number>)[b.code];
    return expected === status ? undefined : `code ${b.code} answered with ${status}`;
  }
  return status >= 500 ? undefined : `status ${status}`;
}

function keep(report: FuzzReport, sample: FuzzSample): void {
  if (report.samples.length < MAX_SAMPLES) report.samples.push(sample);
}

/** A credential that looks right but is not: truncated, altered, or another scheme's. */
function garble(value: string): string {
  return value.length > 8 ? `${value.slice(0, -4)}AAAA` : `${value}x`;
}

/**
 * The `tables.digest` of fuzzOpenApi over SQL: row count and an md5 of every row's text, per
 * table. `query` runs one statement (e.g. Prisma's $queryRawUnsafe).
 */
export function tableDigest(query: (sql: string) => Promise<unknown>, tables: string[]): () => Promise<Record<string, string>> {
  const sql = tables
    .map((t) => `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') AS d FROM "${t}" x`)
    .join(' UNION ALL ');
  return async () => Object.fromEntries(((await query(sql)) as { t: string; d: string }[]).map((r) => [r.t, r.d]));
}

/** Runs and seed of a campaign: FUZZ_RUNS and FUZZ_SEED, else the short defaults `pnpm test` uses. */
export function campaignSettings(defaultRuns: number): { runs: number; seed: number } {
  return { runs: Number(process.env.FUZZ_RUNS ?? defaultRuns), seed: Number(process.env.FUZZ_SEED ?? 14) };
}

/**
 * What went wrong in a campaign, one line each with the samples to reproduce it; empty when
 * every request got a 4xx or a documented 2xx in the envelope and no table changed unduly.
 */
export function campaignFindings(report: FuzzReport, runs: number): string[] {
  const found = [
    ...(report.requests !== runs ? [`${report.requests} requests sent of ${runs}`] : []),
    ...(report.serverErrors ? [`${report.serverErrors} x 5xx or no answer`] : []),
    ...(report.outsideEnvelope ? [`${report.outsideEnvelope} answers outside the envelope`] : []),
    ...(report.tableChanges ? [`${report.tableChanges} requests changed a table they may not write`] : []),
  ];
  return found.length ? [...found, ...report.samples.map((s) => JSON.stringify(s))] : [];
}
