import { authClaims } from '@svc/auth';
import { defineRoute, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { EcdsaPoolService } from './service.js';

/**
 * The server keeps its halves of presignatures and triples; the client keeps the other halves
 * in memory. When a client has lost its halves (page reload, new device, recovery) the server's
 * rows are orphans that only fill the cap, so the client may drop them.
 */
export function ecdsaPoolRoutes(service: EcdsaPoolService, guards: TssGuards): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/tss/v1/presign/discard',
      summary: 'Drop the unused ECDSA presignatures and triples of the caller\u2019s wallet',
      description:
        'Marks every UNUSED presignature and triple of the caller\u2019s secp256k1 wallet DISCARDED and erases its sealed material, in one ' +
        'transaction; rows already taken by a sign or presign session are untouched. The SDK calls it when a fill meets 409 ' +
        'PRESIGNATURE_POOL_FULL while its own pool is empty (the client halves were lost). Presignatures another tab or device of the same ' +
        'user still holds then answer 409 PRESIGNATURE_NOT_AVAILABLE at sign/step1, and that client refills. Body `{}`.',
      tags: ['signing'],
      guards: [guards.apiKey, guards.userJwt],
      body: {},
      errors: ['INVALID_API_KEY', 'FORBIDDEN', 'WALLET_NOT_FOUND'],
      response: {
        type: 'object',
        required: ['discarded_presignatures', 'discarded_triples'],
        properties: { discarded_presignatures: { type: 'integer', minimum: 0 }, discarded_triples: { type: 'integer', minimum: 0 } },
      },
      handler: (_req, res) => service.discard(authClaims(res).sub),
    }),
  ];
}
