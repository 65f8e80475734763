import type { ErrorCode } from '@svc/envelope';
import { field } from '@svc/http';

/** Body of a protocol step: optional session (absent on the first step) and the wire message. */
export const stepBody = {
  session_id: field.uuid().nullable(),
  msg: field.object({ message: 'msg must be an object (a wire message of @svc/crypto ecdsa)' }),
};

export const STEP_ERRORS: ErrorCode[] = [
  'INVALID_API_KEY',
  'FORBIDDEN',
  'WALLET_NOT_FOUND',
  'SIGNING_DISABLED',
  'INVALID_PROTOCOL_MESSAGE',
  'PRESIGNATURE_POOL_FULL',
  'SESSION_NOT_FOUND',
  'SESSION_EXPIRED',
  'SESSION_NOT_ACTIVE',
  'SESSION_STATE_CONSUMED',
];

export function stepResponseSchema(extra: Record<string, unknown> = {}) {
  return {
    type: 'object',
    required: ['session_id', 'msg', 'done'],
    properties: {
      session_id: { type: 'string', format: 'uuid' },
      msg: { type: ['object', 'null'], description: 'The server\u2019s wire message answering the step (docs/crypto/ecdsa.md)' },
      done: { type: 'boolean', description: 'true after the last step: the server\u2019s outputs are stored in its pool' },
      ...extra,
    },
  };
}
