import fc from 'fast-check';

/**
 * What a hostile client sends instead of a field's value: the value in an array, a nested
 * object, null, a huge or exotic string, a number where text is expected and text where a
 * number is, prototype keys, deep nesting.
 */
export function hostileValue(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constant(null),
    valid.map((v) => [v]),
    fc.array(valid, { minLength: 2, maxLength: 3 }),
    valid.map((v) => ({ value: v })),
    valid.map((v) => (typeof v === 'number' ? String(v) : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v)),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constantFrom('', ' ', '0', '-1', 'true', 'null', 'undefined', 'NaN', '1e309', '__proto__', 'constructor', 'toString', '../../etc/passwd', "' OR '1'='1", '%00', '\u0000', '\uFEFF', '\uD800', 'a@b.c'),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer({ min: 1_000, max: 100_000 }).chain((n) => fc.constantFrom('a', '\u00e9', '\u{1F600}', '0').map((c) => c.repeat(n))),
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant(protoObject()),
    fc.integer({ min: 100, max: 1_000 }).map((depth) => nested(depth)),
  );
}

/** `{"__proto__": {...}, "constructor": {...}}` as own keys, the way JSON.parse makes them. */
function protoObject(): unknown {
  return JSON.parse('{"__proto__":{"isAdmin":true,"status":"ACTIVE"},"constructor":{"prototype":{"polluted":true}}}');
}

function nested(depth: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** A path segment that is valid for no route: bad percent-encoding, traversal, huge, control bytes. */
export function hostilePathSegment(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('%zz', '%', '%E0%A4%A', '%C0%AF', '..', '%2e%2e', '%2F', '%00', '%20', 'null', 'undefined', '__proto__', 'constructor', '%5B%5D', '-1', '0'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent),
    fc.integer({ min: 1_000, max: 8_000 }).map((n) => 'a'.repeat(n)),
    fc.uuid().map((u) => u.toUpperCase()),
    fc.uuid().map((u) => `${u}%00`),
  );
}

export interface Encoding {
  /** The Content-Encoding header sent, if any. */
  header?: string;
  /** How the body is really encoded (undefined: as is, whatever the header says). */
  compress?: 'gzip' | 'deflate' | 'br';
}

/** Content-Type, Content-Encoding (honest or lying) and odd extra headers. */
export function hostileHeaders(): fc.Arbitrary<{ contentType: string | undefined; encoding: Encoding; extra: Record<string, string> }> {
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        'application/json; charset=utf-8',
        'application/json; charset=utf-16',
        'application/json; charset=bogus',
        'APPLICATION/JSON',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=xyz',
        'application/merge-patch+json',
        'application/xml',
        '*/*',
        'json',
        '',
      ),
    },
  );
  const encoding = fc.oneof(
    { weight: 8, arbitrary: fc.constant<Encoding>({}) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<Encoding>(
        { header: 'gzip', compress: 'gzip' },
        { header: 'deflate', compress: 'deflate' },
        { header: 'br', compress: 'br' },
        { header: 'gzip' },
        { header: 'deflate' },
        { header: 'br' },
        { header: 'identity' },
        { header: 'zstd' },
        { header: 'gzip, gzip', compress: 'gzip' },
        { header: 'GZIP' },
        { header: 'compress' },
        { header: 'gzip', compress: 'deflate' },
      ),
    },
  );
  const extra = fc.oneof(
    { weight: 8, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>(
        { 'x-request-id': 'x'.repeat(4000) },
        { 'x-request-id': '../../etc/passwd' },
        { 'x-forwarded-for': 'not-an-ip, 999.1.1.1' },
        { accept: 'text/html' },
        { 'accept-encoding': 'br;q=2, gzip;q=-1' },
        { 'x-api-key': '' },
        { authorization: 'Bearer' },
        { authorization: 'Basic Og==' },
      ),
    },
  );
  return fc.record({ contentType, encoding, extra });
}
