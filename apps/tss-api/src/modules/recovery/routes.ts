import { verifiedIdentity } from '@svc/auth';
import { defineRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { RecoveryService } from './service.js';

export function recoveryRoutes(service: RecoveryService, guards: TssGuards): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/user/seed_parts',
      summary: 'The server\u2019s seed part of each wallet, for recovery on a new device and key export',
      description:
        'Bearer ID token of the login provider (a fresh sign-in; a service JWT is refused) and X-API-Key; no body. Returns, per ' +
        'wallet, the server part of the seed\u2019s 2-of-2 split. With t user-part shares from the key share nodes (which need the ' +
        'session key committed with the same token) the client rebuilds the seed and, by the deterministic dealing, keygen_1. ' +
        'A user without wallets: 404 WALLET_NOT_FOUND.',
      tags: ['user'],
      guards: [guards.apiKey, guards.idToken],
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
                curve: { type: 'string', enum: ['ed25519', 'secp256k1'] },
                wallet_id: { type: 'string', format: 'uuid' },
                public_key: { type: 'string' },
                seed_part: { type: 'string', description: 'Server seed part, hex (@svc/crypto Shamir share, x = 1)' },
              },
            },
          },
        },
      },
      handler: (_req, res) => service.seedParts(verifiedIdentity(res)),
    }),
  ];
}
