import { offsetPageFields, paginationSchema, readOffsetPage } from '@svc/accounts';
import { defineRoute, type RouteDef } from '@svc/http';
import { API_PREFIX, type AdminContext } from '../../kernel/context.js';
import type { WalletsService } from './service.js';

const walletSchema = {
  type: 'object',
  required: ['wallet_id', 'user_id', 'user_email', 'auth_type', 'curve', 'public_key', 'key_share_nodes', 'created_at', 'updated_at'],
  properties: {
    wallet_id: { type: 'string', format: 'uuid' },
    user_id: { type: 'string', format: 'uuid' },
    user_email: { type: 'string' },
    auth_type: { type: 'string', enum: ['EMAIL', 'GOOGLE', 'APPLE', 'TELEGRAM', 'X', 'DISCORD', 'OIDC'] },
    curve: { type: 'string', enum: ['secp256k1', 'ed25519'] },
    public_key: { type: 'string', description: 'Hex' },
    key_share_nodes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['node_id', 'name', 'wallet_status'],
        properties: {
          node_id: { type: 'string', format: 'uuid' },
          name: { type: 'string' },
          wallet_status: { type: 'string', enum: ['ACTIVE', 'UNRECOVERABLE_DATA_LOSS', 'NOT_REGISTERED'] },
        },
      },
    },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

export function walletRoutes(service: WalletsService, ctx: AdminContext): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/wallet/get_wallet_list`,
      summary: 'Wallets, newest first (never their shares)',
      description: 'Optional body: limit 1..100 (default 20), offset 0..100000 (default 0), JSON numbers.',
      tags: ['wallets'],
      guards: [ctx.adminAuth],
      body: offsetPageFields(),
      errors: ['FORBIDDEN'],
      response: {
        type: 'object',
        required: ['wallets', 'pagination'],
        properties: { wallets: { type: 'array', items: walletSchema }, pagination: paginationSchema },
      },
      handler: (req) => service.list(readOffsetPage(req.body)),
    }),
  ];
}
