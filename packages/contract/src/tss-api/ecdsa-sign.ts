import type { ErrorCode } from '@svc/envelope';
import { field } from '../fields.js';
import { defineContract } from '../route-contract.js';
import { tssApiPaths } from '../paths.js';

const HASH_ERROR = 'msg must be an array of 32 integers 0-255 (the 32-byte message hash)';
const SHARE = /^[0-9a-f]{64}$/;

/** msg: exactly 32 JSON numbers, each an integer 0-255 (no strings, no floats). */
const msgRule = field
  .array<number>({ min: 32, max: 32, message: HASH_ERROR })
  .check<unknown[]>((v) => v.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255), HASH_ERROR);

const msgs1Rule = <T>(allowed: string[]) => field.object<T>({ keys: allowed });

const shareRule = () =>
  field.string({ pattern: SHARE, message: 'msgs_1.signature_share must be 32 bytes of lowercase hex', typeMessage: 'msgs_1.signature_share must be a hex string' });

const BYTES = { type: 'array', minItems: 32, maxItems: 32, items: { type: 'integer', minimum: 0, maximum: 255 } } as const;
const SIGN_OUTPUT = {
  type: 'object',
  required: ['r', 's', 'recovery_id'],
  properties: {
    r: { ...BYTES, description: 'r, 32 bytes big-endian' },
    s: { ...BYTES, description: 's, 32 bytes big-endian, low-s normalised (s <= n/2)' },
    recovery_id: { type: 'integer', minimum: 0, maximum: 3, description: 'bit 0: parity of R.y; bit 1: x(R) >= n. Ethereum v = 27 + recovery_id' },
  },
} as const;
const HASH_DOC = { ...BYTES, description: 'the 32-byte message hash (e.g. keccak-256 of an Ethereum payload, SHA-256 for Cosmos), one integer 0-255 per byte' };
const SHARE_DOC = { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'the client\u2019s signature share s_1 = h\u00b7\u03bb_1\u00b7k_1 + r\u00b7\u03bb_1\u00b7\u03c3_1 mod n, 32 bytes hex' };

const STEP1_ERRORS = ['INVALID_API_KEY', 'FORBIDDEN', 'WALLET_NOT_FOUND', 'SIGNING_DISABLED', 'PRESIGNATURE_NOT_AVAILABLE', 'INVALID_PROTOCOL_MESSAGE'] as const satisfies readonly ErrorCode[];
const NO_SESSION = field.absent('session_id must be omitted or null when a presignature is spent');
// Spec §2's step request carries session_id: at step 1 a client may choose it (a UUID, once).
const CLIENT_SESSION_ID = field.uuid().nullable();
const PRESIGNATURE_ID = field.uuid();
const step1Response = <const O>(output: O) =>
  ({
    type: 'object',
    required: ['session_id', 'msgs_0', 'sign_output'],
    properties: {
      session_id: { type: 'string', format: 'uuid' },
      msgs_0: {
        type: 'object',
        required: ['presignature_id', 'big_r'],
        properties: { presignature_id: { type: 'string', format: 'uuid' }, big_r: { type: 'string', description: 'R of the presignature, 33-byte compressed point hex' } },
      },
      sign_output: output,
    },
  }) as const;

export const ecdsaSign = defineContract({
  ...tssApiPaths.ecdsaSign,
  summary: 'ECDSA signature in one call: spend one pooled presignature with the client share',
  description:
    'The one-round-trip form of the two steps below (spec: "completes an ECDSA signature"): the body of step 1 with ' +
    '`msgs_1.signature_share` required. The presignature is marked CONSUMED in one conditional update before anything is computed; ' +
    'the server adds its share, verifies the signature under the wallet key and answers sign_output {r, s, recovery_id}. Ed25519 ' +
    'signatures are completed by the client (aggregation after /tss/v2/sign_ed25519/round2), so this route is ECDSA only.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  body: {
    session_id: NO_SESSION,
    msg: msgRule,
    msgs_1: msgs1Rule<{ presignature_id: string; signature_share: string }>(['presignature_id', 'signature_share']),
    'msgs_1.presignature_id': PRESIGNATURE_ID,
    'msgs_1.signature_share': shareRule(),
  },
  bodyDocs: {
    msg: HASH_DOC,
    msgs_1: {
      type: 'object',
      required: ['presignature_id', 'signature_share'],
      additionalProperties: false,
      properties: { presignature_id: { type: 'string', format: 'uuid' }, signature_share: SHARE_DOC },
    },
  },
  errors: [...STEP1_ERRORS],
  response: step1Response(SIGN_OUTPUT),
});

export const ecdsaSignStep1 = defineContract({
  ...tssApiPaths.ecdsaSignStep1,
  summary: 'ECDSA sign step 1: spend one pooled presignature on a 32-byte hash',
  description:
    '`msgs_1.presignature_id` names an UNUSED presignature of the caller\u2019s wallet; it is marked CONSUMED by a new SIGN_ECDSA session in one ' +
    'conditional update before anything is computed (of concurrent requests on one presignature exactly one succeeds; the others, replays, ' +
    'unknown and other users\u2019 ids: 409 PRESIGNATURE_NOT_AVAILABLE). Answer: session_id and msgs_0 {presignature_id, big_r}. With ' +
    '`msgs_1.signature_share` (the client\u2019s share) the server also combines and verifies at once and answers sign_output: one round trip, ' +
    'which the SDK uses; without it sign_output is null and step 2 completes. A share that does not give a valid signature: 400 ' +
    'INVALID_PROTOCOL_MESSAGE, the session aborted, the presignature stays consumed. `session_id` in the body (spec \u00a72): omitted or ' +
    'null for a server-chosen id, or a UUID the client chose, used as the session id; an id already in use: 409 SESSION_ALREADY_EXISTS ' +
    'and nothing spent. Beyond the spec\u2019s {session_id, sign_output}, the answer carries msgs_0 and sign_output.recovery_id.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  body: {
    session_id: CLIENT_SESSION_ID,
    msg: msgRule,
    msgs_1: msgs1Rule<{ presignature_id: string; signature_share?: string }>(['presignature_id', 'signature_share']),
    'msgs_1.presignature_id': PRESIGNATURE_ID,
    'msgs_1.signature_share': shareRule().optional(),
  },
  bodyDocs: {
    msg: HASH_DOC,
    msgs_1: {
      type: 'object',
      required: ['presignature_id'],
      additionalProperties: false,
      properties: { presignature_id: { type: 'string', format: 'uuid' }, signature_share: SHARE_DOC },
    },
  },
  errors: [...STEP1_ERRORS, 'SESSION_ALREADY_EXISTS'],
  response: step1Response({ oneOf: [SIGN_OUTPUT, { type: 'null' }] }),
});

export const ecdsaSignStep2 = defineContract({
  ...tssApiPaths.ecdsaSignStep2,
  summary: 'ECDSA sign step 2: the client share in, the verified signature out',
  description:
    '`session_id` from step 1, the same `msg`, and `msgs_1.signature_share`. The server takes the presignature out of the session atomically ' +
    '(a replay or concurrent duplicate: 409 SESSION_STATE_CONSUMED), computes its share, combines, verifies under the wallet key and answers ' +
    'sign_output {r, s, recovery_id}; the audit log records the hash. Another user\u2019s session: 404. A different msg or a wrong share: 400 ' +
    'INVALID_PROTOCOL_MESSAGE and the session aborted.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  body: {
    session_id: field.uuid(),
    msg: msgRule,
    msgs_1: msgs1Rule<{ signature_share: string }>(['signature_share']),
    'msgs_1.signature_share': shareRule(),
  },
  bodyDocs: {
    msg: HASH_DOC,
    msgs_1: { type: 'object', required: ['signature_share'], additionalProperties: false, properties: { signature_share: SHARE_DOC } },
  },
  errors: ['INVALID_API_KEY', 'FORBIDDEN', 'INVALID_PROTOCOL_MESSAGE', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'SESSION_NOT_ACTIVE', 'SESSION_STATE_CONSUMED'],
  response: { type: 'object', required: ['session_id', 'sign_output'], properties: { session_id: { type: 'string', format: 'uuid' }, sign_output: SIGN_OUTPUT } },
});
