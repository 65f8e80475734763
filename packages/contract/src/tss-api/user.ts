import { field } from '../fields.js';
import { defineContract } from '../route-contract.js';
import { tssApiPaths } from '../paths.js';

const AUTH_TYPES = ['EMAIL', 'GOOGLE', 'APPLE', 'X', 'DISCORD', 'TELEGRAM', 'OIDC'] as const;
const CURVES = ['ed25519', 'secp256k1'] as const;

/** One wallet of a user, as sign-in, keygen and seed_parts list it. */
const WALLET = {
  type: 'object',
  required: ['curve', 'wallet_id', 'public_key'],
  properties: {
    curve: { type: 'string', enum: CURVES },
    wallet_id: { type: 'string', format: 'uuid' },
    public_key: { type: 'string', description: 'Hex: 32-byte RFC 8032 key (ed25519) or 33-byte compressed SEC1 (secp256k1)' },
  },
} as const;

/** Spec §2 sign-in result, with tss-api's additions (user_id, auth_type, wallets) and a fresh service JWT. */
export const SIGN_IN_RESULT = {
  type: 'object',
  required: ['token', 'user'],
  properties: {
    token: { type: 'string', description: 'Service JWT (HS256, audience svc:user, lifetime JWT_EXPIRES_IN)' },
    user: {
      type: 'object',
      required: ['email', 'wallet_id', 'public_key', 'user_id', 'auth_type', 'wallets'],
      properties: {
        email: { type: 'string', description: 'Verified email, or `<id>@<provider>.invalid` for providers without one (Telegram, X)' },
        wallet_id: { type: 'string', format: 'uuid', description: 'Primary wallet: secp256k1 when present, else ed25519' },
        public_key: { type: 'string', description: 'Hex public key of the primary wallet' },
        user_id: { type: 'string', format: 'uuid' },
        auth_type: { type: 'string', enum: AUTH_TYPES },
        wallets: { type: 'array', items: WALLET },
      },
    },
  },
} as const;

const CHECK_RESULT = {
  type: 'object',
  required: ['exists', 'keyshare_node_meta', 'needs_reshare', 'active_nodes_below_threshold'],
  properties: {
    exists: { type: 'boolean' },
    keyshare_node_meta: {
      type: 'object',
      required: ['threshold', 'nodes'],
      properties: {
        threshold: { type: 'integer' },
        nodes: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'endpoint', 'wallet_status'],
            properties: {
              name: { type: 'string' },
              endpoint: { type: 'string', format: 'uri' },
              wallet_status: { type: 'string', enum: ['ACTIVE', 'UNRECOVERABLE_DATA_LOSS', 'NOT_REGISTERED'] },
              node_status: {
                type: 'string',
                enum: ['ONLINE', 'UNREACHABLE', 'NOT_CHECKED'],
                description: 'Whether the node answered this check; NOT_CHECKED: not asked, because this email\u2019s budget of node checks is spent for the minute, and wallet_status is the recorded one (absent when the user has no wallet)',
              },
            },
          },
        },
      },
    },
    needs_reshare: { type: 'boolean' },
    reshare_reasons: { type: 'array', items: { type: 'string', enum: ['UNRECOVERABLE_NODE_DATA_LOSS', 'MISSING_NODE_BACKUP'] } },
    active_nodes_below_threshold: { type: 'boolean' },
  },
} as const;

export const userSignin = defineContract({
  ...tssApiPaths.userSignin,
  summary: 'Sign in with an ID token of a login provider',
  description: 'Bearer ID token (see the idToken scheme) and the app\u2019s X-API-Key; no body. Returns the sign-in result with a service JWT.',
  tags: ['user'],
  auth: ['apiKey', 'idToken'],
  errors: ['INVALID_API_KEY', 'UNAUTHORIZED', 'USER_NOT_FOUND', 'WALLET_NOT_FOUND', 'UNKNOWN_ERROR'],
  response: SIGN_IN_RESULT,
});

export const userSigninSilently = defineContract({
  ...tssApiPaths.userSigninSilently,
  summary: 'Refresh a service JWT without a new login',
  description:
    'Header `Authorization: Bearer <service JWT>` (kind user) and X-API-Key; no body. A valid token, or one expired less than ' +
    'SIGNIN_SILENTLY_WINDOW ago (default 7 days), gets the sign-in result with a fresh token, as long as the user and a wallet ' +
    'still exist. The old token is revoked as the new one is issued: it refreshes once, and a signed-out token not at all. ' +
    'Older, invalid, signed-out or already refreshed tokens: 401; admin or customer tokens: 403.',
  tags: ['user'],
  auth: ['apiKey', 'userJwt'],
  errors: ['INVALID_API_KEY', 'FORBIDDEN', 'USER_NOT_FOUND', 'WALLET_NOT_FOUND'],
  response: SIGN_IN_RESULT,
});

export const userSignout = defineContract({
  ...tssApiPaths.userSignout,
  summary: 'Sign out: revoke this service JWT',
  description:
    'Header `Authorization: Bearer <service JWT>` (kind user) and X-API-Key; no body. The token\u2019s `jti` is revoked in the ' +
    'database, so every replica refuses it from now on (401 UNAUTHORIZED, as any invalid token) and signin_silently will not ' +
    'refresh it. Signing out twice: the second call is 401 (the token is already refused).',
  tags: ['user'],
  auth: ['apiKey', 'userJwt'],
  errors: ['INVALID_API_KEY', 'FORBIDDEN'],
  response: { type: 'object', required: ['message'], properties: { message: { type: 'string', const: 'Signed out' } } },
});

export const userCheck = defineContract({
  ...tssApiPaths.userCheck,
  summary: 'Whether an account exists for an email, and the state of its key share nodes',
  description:
    'No credential (spec \u00a75). Each call asks every key share node about every wallet, so it is limited per client address ' +
    '(USER_CHECK_RATE_LIMIT_PER_MINUTE, default 120; 429 past it), and the nodes are asked at most USER_CHECK_RATE_LIMIT_PER_EMAIL_PER_MINUTE ' +
    '(default 30) times a minute per email, both counted across replicas. Past the email\u2019s budget the call is still answered, from the ' +
    'database alone (node_status NOT_CHECKED): refusing it would let anyone who knows an email block its owner\u2019s sign-in.',
  tags: ['user'],
  auth: ['userCheckRateLimit', 'userCheckEmailRateLimit'],
  body: {
    // Spec §7: an empty email is no email.
    email: field.string({ max: 320, typeMessage: 'email is required' }).check<string>((v) => v !== '', 'email is required'),
    auth_type: field.oneOf(AUTH_TYPES).optional(),
  },
  errors: ['RATE_LIMITED', 'UNKNOWN_ERROR'],
  response: CHECK_RESULT,
});

const PUBLIC_KEY = /^(?:[0-9a-f]{64}|0[23][0-9a-f]{64})$/;
const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * user/reshare (spec 4.1 rules 6-7): after the client re-created lost nodes' shares and
 * registered them, it reports those nodes; tss-api asks each node that it now holds the
 * share, then marks them ACTIVE. Element shape of reshared_key_shares: {name, endpoint}, as
 * listed in user/check's keyshare_node_meta.nodes (docs/keyshare.md).
 */
export const userReshare = defineContract({
  ...tssApiPaths.userReshare,
  summary: 'Confirm that key share nodes hold fresh shares after a heal or reshare',
  description:
    'Bearer ID token and X-API-Key. `public_key`: hex public key of one of the user\u2019s wallets (else 400 "Invalid public key"). ' +
    '`reshared_key_shares`: non-empty array of {name, endpoint} of the nodes that now hold a fresh share (names and endpoints ' +
    'from user/check). Each node is asked (POST /keyshare/v1/check) and must hold the share: otherwise 404 KEY_SHARE_NOT_FOUND, ' +
    'or 503 UPSTREAM_UNAVAILABLE when it does not answer in time; nothing is marked then. On success every named node is ACTIVE. ' +
    'An ID token confirms a reshare once per wallet: a second use for the same wallet is 401 ID_TOKEN_REPLAYED (a failed confirmation does not count).',
  tags: ['user'],
  auth: ['apiKey', 'idToken'],
  body: {
    public_key: field.string({ pattern: PUBLIC_KEY, message: 'Invalid public key', typeMessage: 'Invalid public key' }).missing('Invalid public key'),
    reshared_key_shares: field.array<{ name: string; endpoint: string }>({ min: 1, max: 255, message: 'reshared_key_shares is required' }),
    'reshared_key_shares.*': field.object({ message: 'reshared_key_shares[] must be {name, endpoint} objects' }),
    'reshared_key_shares.*.name': field.string({ pattern: NODE_NAME, message: 'reshared_key_shares[].name must be a node name' }).missing('reshared_key_shares[].name must be a node name'),
    'reshared_key_shares.*.endpoint': field
      .string({ pattern: /^https?:\/\/[^\s/]+(?:\/\S*)?$/, message: 'reshared_key_shares[].endpoint must be a URL' })
      .missing('reshared_key_shares[].endpoint must be a URL'),
  },
  errors: ['INVALID_REQUEST', 'UNAUTHORIZED', 'ID_TOKEN_REPLAYED', 'INVALID_API_KEY', 'USER_NOT_FOUND', 'KEY_SHARE_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
  response: { type: 'null' },
});

export const userSeedParts = defineContract({
  ...tssApiPaths.userSeedParts,
  summary: 'The server\u2019s seed part of each wallet, for recovery on a new device and key export',
  description:
    'Bearer ID token of the login provider (a fresh sign-in; a service JWT is refused) and X-API-Key; no body. Returns, per ' +
    'wallet, the server part of the seed\u2019s 2-of-2 split. With t user-part shares from the key share nodes (which need the ' +
    'session key committed with the same token) the client rebuilds the seed and, by the deterministic dealing, keygen_1. ' +
    'A user without wallets: 404 WALLET_NOT_FOUND.',
  tags: ['user'],
  auth: ['apiKey', 'idToken'],
  errors: ['INVALID_API_KEY', 'UNAUTHORIZED', 'WALLET_NOT_FOUND'],
  response: {
    type: 'object',
    required: ['wallets'],
    properties: {
      wallets: {
        type: 'array',
        items: {
          type: 'object',
          required: ['curve', 'wallet_id', 'public_key', 'seed_part'],
          properties: {
            curve: { type: 'string', enum: CURVES },
            wallet_id: { type: 'string', format: 'uuid' },
            public_key: { type: 'string' },
            seed_part: { type: 'string', description: 'Server seed part, hex (@svc/crypto Shamir share, x = 1)' },
          },
        },
      },
    },
  },
});
