import { field } from '../fields.js';
import { defineContract } from '../route-contract.js';
import { tssApiPaths } from '../paths.js';

/** 64 KiB: far above a Solana transaction (1232 bytes) or a signMessage payload. */
export const MAX_MSG_BYTES = 65_536;

/** 32 bytes as lowercase hex: an encoded point or scalar. */
const HEX_32 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

const COMMITMENT_SCHEMA = {
  type: 'object',
  description:
    'FROST signing commitments wire object: {v:1, ciphersuite:"FROST-ED25519-SHA512-v1", identifier, hiding, binding} (hex points), ' +
    'optionally with `witness` {hiding, binding}: points W with 8·W equal to each commitment, which prove it is in the ' +
    'prime-order subgroup for a fraction of the cost of checking it. A wrong witness is refused like a wrong point. ' +
    'The one-call sign answers commitment0 with a witness when commitment1 had one; round 1 never does.',
  required: ['v', 'ciphersuite', 'identifier', 'hiding', 'binding'],
  properties: {
    v: { const: 1 },
    ciphersuite: { const: 'FROST-ED25519-SHA512-v1' },
    identifier: { type: 'integer', enum: [1, 2] },
    hiding: HEX_32,
    binding: HEX_32,
    witness: { type: 'object', required: ['hiding', 'binding'], properties: { hiding: HEX_32, binding: HEX_32 } },
  },
} as const;

const msgRule = () =>
  field
    .string({ min: 2, max: MAX_MSG_BYTES * 2, message: `msg must be 1 to ${MAX_MSG_BYTES} bytes`, typeMessage: 'msg must be a hex string' })
    .check<string>((v) => /^(?:[0-9a-f]{2})+$/.test(v), 'msg must be lowercase hex of even length');

const SIGNATURE_SHARE_SCHEMA = {
  type: 'object',
  description: 'Signature share wire object {v:1, ciphersuite, identifier:2, share} (32-byte scalar, hex)',
  required: ['v', 'ciphersuite', 'identifier', 'share'],
  properties: { v: { const: 1 }, ciphersuite: { type: 'string' }, identifier: { const: 2 }, share: HEX_32 },
} as const;

export const ed25519Round1 = defineContract({
  ...tssApiPaths.ed25519Round1,
  summary: 'Ed25519 round 1: open a signing session and get the server commitment',
  description:
    '`msg` is the message to sign as lowercase hex (1 byte to 64 KiB), e.g. a serialized Solana transaction message. ' +
    'Returns session_id and commitment0 (identifier 2). The session lives TSS_SESSION_TTL_SECONDS (default 300). ' +
    'Bearer service JWT and X-API-Key required.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  body: { msg: msgRule() },
  errors: ['INVALID_API_KEY', 'FORBIDDEN', 'WALLET_NOT_FOUND', 'SIGNING_DISABLED'],
  response: {
    type: 'object',
    required: ['session_id', 'commitment0'],
    properties: { session_id: { type: 'string', format: 'uuid' }, commitment0: COMMITMENT_SCHEMA },
  },
});

export const ed25519Round2 = defineContract({
  ...tssApiPaths.ed25519Round2,
  summary: 'Ed25519 round 2: send the client commitment, get the server signature share',
  description:
    '`commitment1` is the client\u2019s commitments wire object (identifier 1). The server takes its nonces out of the session ' +
    'atomically before computing signature_share0, so a session yields one share at most: a replay, a concurrent duplicate or a ' +
    'retry with another commitment1 gets 409 SESSION_STATE_CONSUMED. Another user\u2019s session: 404.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  body: {
    session_id: field.uuid(),
    commitment1: field.object(),
  },
  bodyDocs: { commitment1: COMMITMENT_SCHEMA },
  errors: ['INVALID_API_KEY', 'FORBIDDEN', 'INVALID_PROTOCOL_MESSAGE', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'SESSION_NOT_ACTIVE', 'SESSION_STATE_CONSUMED'],
  response: {
    type: 'object',
    required: ['signature_share0'],
    properties: { signature_share0: SIGNATURE_SHARE_SCHEMA },
  },
});

/**
 * Both rounds in one call: the client's commitment is fixed before the server draws its nonces,
 * and the server's nonces never leave the request (nothing to store, claim or replay).
 */
export const ed25519Sign = defineContract({
  ...tssApiPaths.ed25519Sign,
  summary: 'Ed25519 signature in one call: the client commitment in, the server commitment and share out',
  description:
    'The one-round-trip form of round 1 and round 2 (spec: /tss/v1/sign "completes an EdDSA signature"): `msg` as on round 1 and ' +
    'the client’s `commitment1` (identifier 1) as on round 2, no session_id. The server draws fresh nonces, computes ' +
    'signature_share0 for the commitment list {commitment0, commitment1} at once and answers session_id (a COMPLETED session, ' +
    'with its audit row), commitment0 and signature_share0; the client aggregates the 64-byte signature. The server’s nonces ' +
    'exist only inside this request, so a replay or a concurrent duplicate gets an answer with other nonces, never a second share ' +
    'for the same ones. The client commits before it sees commitment0: it learns less than in the two-round flow, never more.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  body: {
    session_id: field.absent('session_id must be omitted or null when both rounds run in one call'),
    msg: msgRule(),
    commitment1: field.object(),
  },
  bodyDocs: { commitment1: COMMITMENT_SCHEMA },
  errors: ['INVALID_API_KEY', 'FORBIDDEN', 'WALLET_NOT_FOUND', 'SIGNING_DISABLED', 'INVALID_PROTOCOL_MESSAGE'],
  response: {
    type: 'object',
    required: ['session_id', 'commitment0', 'signature_share0'],
    properties: { session_id: { type: 'string', format: 'uuid' }, commitment0: COMMITMENT_SCHEMA, signature_share0: SIGNATURE_SHARE_SCHEMA },
  },
});
