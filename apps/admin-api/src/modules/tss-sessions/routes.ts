import { DEFAULT_PAGE_LIMIT, limitField } from '@svc/accounts';
import { defineRoute, field, type RouteDef } from '@svc/http';
import { API_PREFIX, type AdminContext } from '../../kernel/context.js';
import type { TssSessionsService } from './service.js';

const dateTime = { type: 'string', format: 'date-time' };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const nullableUuid = { type: ['string', 'null'], format: 'uuid' };

const sessionSchema = {
  type: 'object',
  required: ['session_id', 'kind', 'status', 'user_id', 'wallet_id', 'customer_id', 'api_key_id', 'state_version', 'expires_at', 'completed_at', 'created_at', 'updated_at', 'stages'],
  properties: {
    session_id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: ['KEYGEN', 'SIGN_ED25519', 'TRIPLES', 'PRESIGN', 'SIGN_ECDSA', 'RESHARE'] },
    status: { type: 'string', enum: ['ACTIVE', 'COMPLETED', 'ABORTED', 'EXPIRED'] },
    user_id: { type: 'string', format: 'uuid' },
    wallet_id: nullableUuid,
    customer_id: nullableUuid,
    api_key_id: nullableUuid,
    state_version: { type: 'integer' },
    expires_at: dateTime,
    completed_at: nullableDateTime,
    created_at: dateTime,
    updated_at: dateTime,
    stages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'status', 'created_at', 'completed_at'],
        properties: {
          name: { type: 'string' },
          status: { type: 'string', enum: ['IN_PROGRESS', 'COMPLETED', 'FAILED'] },
          created_at: dateTime,
          completed_at: nullableDateTime,
        },
      },
    },
  },
};

export function tssSessionRoutes(service: TssSessionsService, ctx: AdminContext): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/tss/get_tss_session_list`,
      summary: 'TSS sessions, newest first, by cursor (never their protocol state)',
      description:
        'Optional body: limit 1..100 (default 20), cursor = next_cursor of the previous page. ' +
        'next_cursor is null on the last page. Cursors are opaque.',
      tags: ['tss'],
      guards: [ctx.adminAuth],
      body: {
        limit: limitField(),
        cursor: field.string({ min: 1, max: 200, message: 'cursor is invalid' }).optional(),
      },
      errors: ['FORBIDDEN'],
      response: {
        type: 'object',
        required: ['sessions', 'next_cursor'],
        properties: { sessions: { type: 'array', items: sessionSchema }, next_cursor: { type: ['string', 'null'] } },
      },
      handler: (req) => service.list(req.body.limit ?? DEFAULT_PAGE_LIMIT, req.body.cursor),
    }),
  ];
}
