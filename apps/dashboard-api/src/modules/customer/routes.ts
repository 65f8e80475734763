import { customerDetailSchema, dashboardUserSchema } from '@svc/accounts';
import { authClaims } from '@svc/auth';
import { defineRoute, type RouteDef } from '@svc/http';
import { API_PREFIX, type DashboardContext } from '../../kernel/context.js';
import type { CustomerService } from './service.js';

export function customerRoutes(service: CustomerService, ctx: DashboardContext): RouteDef[] {
  const tags = ['customer'];
  return [
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/customer/info`,
      summary: "The signed-in user's customer, with metadata",
      tags,
      guards: [ctx.customerAuth],
      errors: ['FORBIDDEN'],
      response: {
        type: 'object',
        required: ['customer', 'user', 'metadata'],
        properties: {
          customer: customerDetailSchema,
          user: dashboardUserSchema,
          metadata: {
            type: 'object',
            required: ['dashboard_user_count', 'api_key_count', 'active_api_key_count'],
            properties: {
              dashboard_user_count: { type: 'integer' },
              api_key_count: { type: 'integer' },
              active_api_key_count: { type: 'integer' },
            },
          },
        },
      },
      handler: (_req, res) => service.info(authClaims(res)),
    }),
  ];
}
