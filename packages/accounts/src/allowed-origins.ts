import { field, type Fields } from '@svc/http';

/** Bounds of an API key's allowed origins (docs/api/dashboard.md, "API keys"). */
export const MAX_ALLOWED_ORIGINS = 20;
export const MAX_ORIGIN_LENGTH = 255;

// scheme://host[:port], optionally followed by the one "/" people paste from the address bar.
// The host is an IPv6 literal or any run of characters a host may hold (a Unicode name is
// turned into its punycode form by URL); "*" is refused explicitly: wildcards are not supported.
const ORIGIN_SHAPE = /^https?:\/\/(\[[0-9a-f:.]+\]|[^\s/?#@*:[\]\\]+)(:\d{1,5})?\/?$/i;

/**
 * The origin a browser would send for `text` (lower-case scheme and host, punycode, no default
 * port, no trailing slash), or null when `text` is not an exact http(s) origin.
 */
export function normaliseOrigin(text: string): string | null {
  if (text.length > MAX_ORIGIN_LENGTH || !ORIGIN_SHAPE.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.origin.length <= MAX_ORIGIN_LENGTH ? url.origin : null;
}

/** The list as stored: each origin normalised, duplicates dropped, in the order given. Call after validation. */
export function normaliseOrigins(list: readonly string[]): string[] {
  return [...new Set(list.map((o) => normaliseOrigin(o)).filter((o): o is string => o !== null))];
}

/** The optional `allowed_origins` body field and its items (an empty list: any origin). */
export function allowedOriginsFields(): Fields {
  return {
    allowed_origins: field
      .array({ max: MAX_ALLOWED_ORIGINS, message: `allowed_origins must be an array of at most ${MAX_ALLOWED_ORIGINS} origins` })
      .describe({
        description:
          'Exact browser origins (scheme://host[:port]) allowed to call tss-api with this key; stored normalised, ' +
          'duplicates dropped. Empty: any origin. Requests without an Origin header are not affected.',
      })
      .optional(),
    // Optional only so that the OpenAPI document does not make the list itself required: a JSON
    // array has no missing items (a null one fails the string check).
    'allowed_origins.*': field
      .string({ max: MAX_ORIGIN_LENGTH, description: 'An origin such as https://app.example.com' })
      .check<string>((v) => normaliseOrigin(v) !== null, (p) => `${p} must be an origin such as https://app.example.com (http or https, host and optional port, no path, no wildcard)`)
      .optional(),
  };
}
