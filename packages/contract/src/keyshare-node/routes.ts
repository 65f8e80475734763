import type { ErrorCode } from '@svc/envelope';
import { field } from '../fields.js';
import { defineContract } from '../route-contract.js';
import { keyshareNodePaths } from '../paths.js';
import { hex64, isValidPublicKey, MAX_SHARE_BYTES, walletFields } from './fields.js';

export const commitIdToken = defineContract({
  ...keyshareNodePaths.commitIdToken,
  summary: 'Commit an ID token hash to a fresh session key (before showing the token to anyone)',
  description:
    "Binds an ID token's commit key to the Ed25519 public key of a client session. The commit key (sent as " +
    "`id_token_hash`) is SHA-256 of the token's canonical form, the same for every spelling of one token (for a JWT its " +
    'signed `header.payload`; docs/keyshare.md). First commit wins: the same key with another session key is refused ' +
    '(401 ID_TOKEN_COMMITTED_TO_OTHER_KEY); the same pair again is accepted. Later /keyshare/v1 requests with that token ' +
    'must be signed by this key; a re-spelled copy of the token counts as the same token, or is refused outright.',
  tags: ['commit'],
  auth: ['commitRateLimit'],
  body: {
    id_token_hash: hex64(),
    session_public_key: hex64().check((value) => isValidPublicKey('ed25519', value), 'session_public_key must be a valid Ed25519 public key'),
  },
  errors: ['INVALID_REQUEST', 'ID_TOKEN_COMMITTED_TO_OTHER_KEY', 'RATE_LIMITED'],
  response: {
    type: 'object',
    required: ['committed', 'expires_at'],
    properties: { committed: { const: true }, expires_at: { type: 'string', format: 'date-time' } },
  },
});

const SIGNED_ERRORS = ['UNAUTHORIZED', 'ID_TOKEN_NOT_COMMITTED', 'INVALID_REQUEST_SIGNATURE', 'REQUEST_REPLAYED', 'RATE_LIMITED'] as const satisfies readonly ErrorCode[];
/** A request signed by the session key an ID token was committed to, and its per-user limit. */
const SIGNED = ['keyshareRateLimit', 'committedIdToken'] as const;

export const keyshareRegister = defineContract({
  ...keyshareNodePaths.keyshareRegister,
  summary: "Store the caller's share of a wallet (encrypted at rest)",
  description:
    "The caller is the verified ID token's identity. A share exists already -> 409 KEY_SHARE_ALREADY_EXISTS, unless " +
    '`reshare` is true and the caller owns it (then it is replaced). The share must be at this node\'s x-coordinate ' +
    '(its last byte; see GET /keyshare/v1/info).',
  tags: ['keyshare'],
  auth: SIGNED,
  body: {
    ...walletFields,
    share: field.string({ pattern: new RegExp(`^(?:[0-9a-f]{2}){2,${MAX_SHARE_BYTES}}$`), message: `share must be 2 to ${MAX_SHARE_BYTES} bytes in lowercase hex` }),
    reshare: field.boolean().optional(),
  },
  errors: ['INVALID_REQUEST', 'KEY_SHARE_ALREADY_EXISTS', ...SIGNED_ERRORS],
  response: { type: 'null' },
});

export const keyshareFetch = defineContract({
  ...keyshareNodePaths.keyshareFetch,
  summary: "The caller's share of a wallet",
  description: 'Returned only to its owner (the identity of the verified ID token); anyone else gets 404 KEY_SHARE_NOT_FOUND.',
  tags: ['keyshare'],
  auth: SIGNED,
  body: walletFields,
  errors: ['INVALID_REQUEST', 'KEY_SHARE_NOT_FOUND', ...SIGNED_ERRORS],
  response: {
    type: 'object',
    required: ['share_id', 'share'],
    properties: { share_id: { type: 'string', format: 'uuid' }, share: { type: 'string', description: 'hex' } },
  },
});

export const keyshareCheck = defineContract({
  ...keyshareNodePaths.keyshareCheck,
  summary: 'Whether this node holds a share for a wallet public key',
  description:
    'Public (rate limited): the main API asks it for user/check. It reveals only whether a backup exists for a public ' +
    'key, never whose it is or the share (see docs/keyshare.md, "Check endpoint").',
  tags: ['keyshare'],
  auth: ['checkRateLimit'],
  body: walletFields,
  errors: ['INVALID_REQUEST', 'RATE_LIMITED'],
  response: { type: 'object', required: ['exists'], properties: { exists: { type: 'boolean' } } },
});

const NODE_INFO_FIELDS = ['name', 'public_url', 'identity_public_key', 'x_coordinate', 'protocol'] as const;

export const nodeInfo = defineContract({
  ...keyshareNodePaths.nodeInfo,
  summary: "The node's name, public identity key and Shamir x-coordinate",
  tags: ['node'],
  auth: ['infoRateLimit'],
  errors: ['RATE_LIMITED'],
  response: {
    type: 'object',
    required: NODE_INFO_FIELDS,
    properties: {
      name: { type: 'string' },
      public_url: { type: 'string' },
      identity_public_key: { type: 'string', description: 'hex Ed25519 public key' },
      x_coordinate: { type: 'integer', minimum: 1, maximum: 255 },
      protocol: { type: 'string', description: 'signed request format version' },
    },
  },
});
