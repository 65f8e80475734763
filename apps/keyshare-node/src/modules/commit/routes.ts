import { defineRoute, type Guard, type RouteDef } from '@svc/http';
import { isValidPublicKey, hex64 } from '../keyshare/fields.js';
import type { CommitService } from './service.js';

export function commitRoutes(service: CommitService, rateLimit: Guard): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/commit/v1/id-token',
      summary: 'Commit an ID token hash to a fresh session key (before showing the token to anyone)',
      description:
        'Binds SHA-256 of an ID token to the Ed25519 public key of a client session. First commit wins: the same hash with ' +
        'another key is refused (401 ID_TOKEN_COMMITTED_TO_OTHER_KEY); the same pair again is accepted. Later /keyshare/v1 ' +
        'requests with that token must be signed by this key.',
      tags: ['commit'],
      guards: [rateLimit],
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
      handler: (req) => service.commit(req.body.id_token_hash, req.body.session_public_key),
    }),
  ];
}
