import { allowedOriginsFields, apiKeySchema, DEFAULT_API_KEY_LABEL, issuedApiKeySchema, labelField, offsetPageFields, paginationSchema, readOffsetPage } from '@svc/accounts';
import { defineRoute, field, type RouteDef } from '@svc/http';
import { API_PREFIX, type AdminContext } from '../../kernel/context.js';
import type { ApiKeysService } from './service.js';

export function apiKeyRoutes(service: ApiKeysService, ctx: AdminContext): RouteDef[] {
  const tags = ['api keys'];
  return [
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/customer/create_api_key`,
      summary: "Issues a new API key for a customer (the key is returned once)",
      tags,
      guards: [ctx.adminAuth],
      body: {
        customer_id: field.uuid(),
        label: labelField.optional(),
        ...allowedOriginsFields(),
      },
      status: 201,
      errors: ['FORBIDDEN', 'CUSTOMER_NOT_FOUND'],
      response: issuedApiKeySchema,
      handler: (req) => service.issue(req.body.customer_id, req.body.label ?? DEFAULT_API_KEY_LABEL, req.body.allowed_origins ?? []),
    }),
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/customer/get_api_key_list`,
      summary: "A customer's API keys, newest first (live and revoked)",
      description: 'limit 1..100 (default 20), offset 0..100000 (default 0).',
      tags,
      guards: [ctx.adminAuth],
      body: { customer_id: field.uuid(), ...offsetPageFields() },
      errors: ['FORBIDDEN', 'CUSTOMER_NOT_FOUND'],
      response: {
        type: 'object',
        required: ['api_keys', 'pagination'],
        properties: { api_keys: { type: 'array', items: apiKeySchema }, pagination: paginationSchema },
      },
      handler: (req) => service.list(req.body.customer_id, readOffsetPage(req.body)),
    }),
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/customer/revoke_api_key`,
      summary: "Revokes one of a customer's API keys; tss-api refuses it from then on",
      tags,
      guards: [ctx.adminAuth],
      body: {
        customer_id: field.uuid(),
        api_key_id: field.uuid(),
      },
      errors: ['FORBIDDEN', 'API_KEY_NOT_FOUND'],
      response: apiKeySchema,
      handler: (req) => service.revoke(req.body.customer_id, req.body.api_key_id),
    }),
  ];
}
