import { field } from '../fields.js';
import { defineContract } from '../route-contract.js';
import { tssApiPaths } from '../paths.js';
import { SIGN_IN_RESULT } from './user.js';

const HEX = /^(?:[0-9a-f]{2})+$/;
const object = <T>() => field.object<T>().optional();
const hex = () => field.string({ pattern: HEX, message: (p) => `${p} must be lowercase hex`, typeMessage: (p) => `${p} must be a hex string` }).optional();
const wireObject = (description: string) => ({ type: 'object', description });

/**
 * What the client sends for its Ed25519 wallet: the server's key package (keygen_2) and seed
 * part. The rules check each member's type when present; the service refuses a part that lacks
 * one (the documentation lists them as required).
 */
export interface Ed25519KeygenPart {
  key_package?: Record<string, unknown>;
  public_key_package?: Record<string, unknown>;
  seed_part?: string;
}

/** What the client sends for its secp256k1 wallet: the server's Feldman share f(2) and seed part (checked as the Ed25519 part). */
export interface Secp256k1KeygenPart {
  secret_share?: string;
  public_key?: string;
  commitments?: string[];
  seed_part?: string;
}

export const keygen = defineContract({
  ...tssApiPaths.keygen,
  summary: 'Create the wallet(s): store the server\u2019s key share and seed part, encrypted',
  description:
    'The client deals the key (docs/architecture.md, Keygen) and sends, per curve it creates, the server\u2019s share and seed part. ' +
    'ed25519: `key_package` is keygen_2 as the @svc/crypto wire object (identifier 2), `public_key_package` the wire public key ' +
    'package; the server checks keygen_2 against it before storing. secp256k1: the server\u2019s Feldman share f(2), the ' +
    'compressed public key and the two commitments; checked with the Feldman equation. `seed_part` is the server part of the ' +
    'seed\u2019s 2-of-2 split (hex). Header: Bearer ID token and X-API-Key. Creates the user on first keygen and answers the ' +
    'sign-in result. A second keygen for the same user and curve: 409 WALLET_ALREADY_EXISTS. One ID token creates wallets once: ' +
    'adding the other curve later needs a fresh ID token (else 401 ID_TOKEN_REPLAYED). At most KEYGEN_RATE_LIMIT_PER_HOUR calls per ' +
    'login identity and hour, counted across replicas (429 RATE_LIMITED).',
  tags: ['keygen'],
  auth: ['apiKey', 'idToken', 'keygenRateLimit'],
  body: {
    ed25519: object<Ed25519KeygenPart>(),
    'ed25519.key_package': object(),
    'ed25519.public_key_package': object(),
    'ed25519.seed_part': hex(),
    secp256k1: object<Secp256k1KeygenPart>(),
    'secp256k1.secret_share': hex(),
    'secp256k1.public_key': hex(),
    'secp256k1.commitments': field.array<string>({ min: 2, max: 2, message: 'secp256k1.commitments must be 2 hex points' }).optional(),
    'secp256k1.commitments.*': hex(),
    'secp256k1.seed_part': hex(),
  },
  bodyDocs: {
    ed25519: {
      type: 'object',
      required: ['key_package', 'public_key_package', 'seed_part'],
      additionalProperties: false,
      properties: {
        key_package: wireObject('keygen_2: {v:1, ciphersuite:"FROST-ED25519-SHA512-v1", identifier:2, signing_share, verifying_share, verifying_key, min_signers:2}'),
        public_key_package: wireObject('{v:1, ciphersuite, verifying_shares:{"1","2"}, verifying_key}'),
        seed_part: { type: 'string', pattern: '^[0-9a-f]+$', description: 'server seed part, hex (2-256 bytes)' },
      },
    },
    secp256k1: {
      type: 'object',
      required: ['secret_share', 'public_key', 'commitments', 'seed_part'],
      additionalProperties: false,
      properties: {
        secret_share: { type: 'string', description: '32-byte scalar f(2), hex' },
        public_key: { type: 'string', description: '33-byte compressed point, hex' },
        commitments: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string' }, description: 'Feldman commitments [secret\u00b7G, a1\u00b7G]' },
        seed_part: { type: 'string', description: 'server seed part, hex' },
      },
    },
  },
  errors: ['INVALID_API_KEY', 'UNAUTHORIZED', 'ID_TOKEN_REPLAYED', 'KEY_PACKAGE_MISMATCH', 'WALLET_ALREADY_EXISTS', 'RATE_LIMITED'],
  response: SIGN_IN_RESULT,
});
