import { field, type Field, type Fields } from '@svc/http';

/** Offset pagination of every list (docs/api/*.md): limit 1..100 (default 20), offset 0..100000 (default 0). */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
export const MAX_PAGE_OFFSET = 100_000;

export interface OffsetPage {
  limit: number;
  offset: number;
}

/** `limit` and `offset` of a JSON body (numbers) or a query string (digits). */
export function offsetPageFields(): Fields {
  return { limit: limitField(), offset: field.int({ min: 0, max: MAX_PAGE_OFFSET }).optional() };
}

/** `limit` alone (cursor pagination). */
export function limitField(): Field {
  return field.int({ min: 1, max: MAX_PAGE_LIMIT }).optional();
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
