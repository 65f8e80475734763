import type { ErrorCode } from '@svc/envelope';
import { field } from '../fields.js';
import { defineContract } from '../route-contract.js';
import { tssApiPaths } from '../paths.js';

/** Body of a protocol step: optional session (absent on the first step) and the wire message. */
const stepBody = {
  session_id: field.uuid().nullable(),
  msg: field.object({ message: 'msg must be an object (a wire message of @svc/crypto ecdsa)' }),
};

const STEP_ERRORS = [
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
] as const satisfies readonly ErrorCode[];

const STEP_PROPERTIES = {
  session_id: { type: 'string', format: 'uuid' },
  msg: { type: ['object', 'null'], description: 'The server\u2019s wire message answering the step (docs/crypto/ecdsa.md)' },
  done: { type: 'boolean', description: 'true after the last step: the server\u2019s outputs are stored in its pool' },
} as const;

export const ecdsaTriples = defineContract({
  ...tssApiPaths.ecdsaTriples,
  summary: 'ECDSA triple generation, one step per call (3 calls per batch)',
  description:
    'Offline preprocessing of two-party ECDSA (docs/api/tss-ecdsa.md). Call 1: `{ msg: triples/1 }` without session_id opens a TRIPLES session; ' +
    'calls 2 and 3: `{ session_id, msg: triples/2 | triples/3 }`. Each answer is `{ session_id, msg: triples/N-reply, done }`; after call 3 ' +
    'the server\u2019s triples are in its pool (sealed). A batch holds at most ECDSA_TRIPLE_BATCH_MAX triples (two per presignature) and a wallet at ' +
    'most ECDSA_TRIPLE_POOL_MAX unused ones (409 PRESIGNATURE_POOL_FULL). A message failing a check: 400 INVALID_PROTOCOL_MESSAGE and the ' +
    'session is aborted. Each later step claims the session\u2019s state before it computes: of concurrent requests for one step (any replica) one is ' +
    'evaluated, the others and replays get 409 SESSION_STATE_CONSUMED having changed nothing. At most TSS_OPEN_SESSIONS_MAX (default 4) open ' +
    'triples/presign runs per wallet (429 TOO_MANY_OPEN_SESSIONS) and TRIPLES_RATE_LIMIT_PER_MINUTE new runs per user (429 RATE_LIMITED). ' +
    'Bearer service JWT and X-API-Key.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt', 'triplesRateLimit'],
  body: stepBody,
  errors: [...STEP_ERRORS, 'TOO_MANY_OPEN_SESSIONS', 'RATE_LIMITED', 'PROTOCOL_SESSION_REUSED'],
  response: { type: 'object', required: ['session_id', 'msg', 'done'], properties: STEP_PROPERTIES },
});

export const ecdsaPresign = defineContract({
  ...tssApiPaths.ecdsaPresign,
  summary: 'ECDSA presign, one step per call (2 calls for a batch of presignatures)',
  description:
    'Call 1: `{ msg: presign/1 }` (no session_id) names 2\u00b7M triples of this wallet by (session_id, index); the server marks exactly those ' +
    'rows consumed in one conditional update (all or nothing) and commits that before it computes presign/1-reply. Call 2: ' +
    '`{ session_id, msg: presign/2 }` answers presign/2-reply with done: true and `presignature_ids` (element i = protocol index i); the ' +
    'server\u2019s halves are in its pool, sealed. At most ECDSA_PRESIGNATURE_POOL_MAX unused presignatures per wallet (409 ' +
    'PRESIGNATURE_POOL_FULL). Triples that are unknown, another wallet\u2019s or already consumed: 400 INVALID_PROTOCOL_MESSAGE, nothing consumed.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  body: stepBody,
  errors: [...STEP_ERRORS, 'TOO_MANY_OPEN_SESSIONS'],
  response: {
    type: 'object',
    required: ['session_id', 'msg', 'done'],
    properties: {
      ...STEP_PROPERTIES,
      presignature_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, description: 'after the last step: pool ids, by protocol index' },
    },
  },
});

/**
 * The server keeps its halves of presignatures and triples; the client keeps the other halves
 * in memory. When a client has lost its halves (page reload, new device, recovery) the server's
 * rows are orphans that only fill the cap, so the client may drop them.
 */
export const ecdsaPresignDiscard = defineContract({
  ...tssApiPaths.ecdsaPresignDiscard,
  summary: 'Drop the unused ECDSA presignatures and triples of the caller\u2019s wallet',
  description:
    'Marks every UNUSED presignature and triple of the caller\u2019s secp256k1 wallet DISCARDED and erases its sealed material, in one ' +
    'transaction; rows already taken by a sign or presign session are untouched. The SDK calls it when a fill meets 409 ' +
    'PRESIGNATURE_POOL_FULL while its own pool is empty (the client halves were lost). Presignatures another tab or device of the same ' +
    'user still holds then answer 409 PRESIGNATURE_NOT_AVAILABLE at sign/step1, and that client refills. Body `{}`.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  body: {},
  errors: ['INVALID_API_KEY', 'FORBIDDEN', 'WALLET_NOT_FOUND'],
  response: {
    type: 'object',
    required: ['discarded_presignatures', 'discarded_triples'],
    properties: { discarded_presignatures: { type: 'integer', minimum: 0 }, discarded_triples: { type: 'integer', minimum: 0 } },
  },
});
