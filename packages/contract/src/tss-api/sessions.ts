import { field } from '../fields.js';
import { defineContract } from '../route-contract.js';
import { tssApiPaths } from '../paths.js';

export const sessionAbort = defineContract({
  ...tssApiPaths.sessionAbort,
  summary: 'Abort an active TSS session (any protocol, any step)',
  description: 'The session ends as ABORTED and its stored state, including sealed nonces, is erased. Only the session\u2019s user may abort it.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  body: { session_id: field.uuid() },
  errors: ['INVALID_API_KEY', 'FORBIDDEN', 'SESSION_NOT_FOUND', 'SESSION_NOT_ACTIVE'],
  response: { type: 'object', required: ['session_id'], properties: { session_id: { type: 'string', format: 'uuid' } } },
});
