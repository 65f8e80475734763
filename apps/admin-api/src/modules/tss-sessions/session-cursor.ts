import { AppError } from '@svc/envelope';

/**
 * The opaque cursor of get_tss_session_list: base64url of {"t": createdAt, "i": id} of the
 * last session of the previous page. Sessions are ordered by (createdAt, id) descending,
 * which the (created_at, id) index serves, so a page costs the same at any depth and rows
 * inserted meanwhile neither repeat nor shift the pages.
 */
export interface SessionCursor {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The only form encodeSessionCursor writes for a row's created_at: a four-digit year from 1970
 * on. JavaScript dates reach years 0000, +010000 and beyond, which toISOString round-trips but
 * PostgreSQL's timestamp (or Prisma's conversion) refuses: those cursors were a 500.
 */
const CURSOR_TIME = /^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeSessionCursor(cursor: SessionCursor): string {
  return Buffer.from(JSON.stringify({ t: cursor.createdAt.toISOString(), i: cursor.id })).toString('base64url');
}

export function decodeSessionCursor(raw: string): SessionCursor {
  const invalid = new AppError('INVALID_REQUEST', 'cursor is invalid');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid;
  const { t, i } = parsed as Record<string, unknown>;
  if (typeof t !== 'string' || typeof i !== 'string' || !UUID.test(i) || !CURSOR_TIME.test(t)) throw invalid;
  const createdAt = new Date(t);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== t) throw invalid;
  return { createdAt, id: i.toLowerCase() };
}
