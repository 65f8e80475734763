import type { FieldRules } from '@svc/http';
import type { ParamSchema } from 'express-validator';

/** Offset pagination of every list (docs/api/*.md): limit 1..100 (default 20), offset 0..100000 (default 0). */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
export const MAX_PAGE_OFFSET = 100_000;

export interface OffsetPage {
  limit: number;
  offset: number;
}

function intRule(field: string, min: number, max: number, location: 'body' | 'query'): ParamSchema {
  const errorMessage = `${field} must be an integer between ${min} and ${max}`;
  return {
    optional: true,
    // JSON bodies carry numbers ("limit (number)" in the spec); "5" or true are refused
    // rather than coerced. Query strings are always text and are parsed.
    ...(location === 'body' ? { custom: { options: (v: unknown) => typeof v === 'number', errorMessage, bail: true } } : {}),
    isInt: { options: { min, max }, errorMessage },
  };
}

/** Validation rules of `limit` and `offset` in a JSON body or a query string. */
export function offsetPageRules(location: 'body' | 'query'): FieldRules {
  return {
    limit: intRule('limit', 1, MAX_PAGE_LIMIT, location),
    offset: intRule('offset', 0, MAX_PAGE_OFFSET, location),
  };
}

/** Rules of `limit` alone (cursor pagination). */
export function limitRule(location: 'body' | 'query'): ParamSchema {
  return intRule('limit', 1, MAX_PAGE_LIMIT, location);
}

/** The page asked for, with defaults; call after validation. */
export function readOffsetPage(source: Record<string, unknown> | undefined): OffsetPage {
  return {
    limit: source?.limit === undefined ? DEFAULT_PAGE_LIMIT : Number(source.limit),
    offset: source?.offset === undefined ? 0 : Number(source.offset),
  };
}

/** What every list response carries beside its items. */
export const paginationSchema = {
  type: 'object',
  required: ['limit', 'offset', 'total'],
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT },
    offset: { type: 'integer', minimum: 0 },
    total: { type: 'integer', minimum: 0, description: 'Number of items in the whole list' },
  },
};
