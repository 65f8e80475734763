import { apiKeySchema, DEFAULT_API_KEY_LABEL, issuedApiKeySchema, offsetPageRules, paginationSchema, readOffsetPage } from '@svc/accounts';
import { defineRoute, type RouteDef } from '@svc/http';
import { API_PREFIX, type AdminContext } from '../../context.js';
import { customerIdRule } from '../customers/routes.js';
import { getCustomerApiKeys, issueCustomerApiKey, revokeCustomerApiKey } from './service.js';

export function apiKeyRoutes(ctx: AdminContext): RouteDef[] {
  const tags = ['api keys'];
  return [
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/customer/create_api_key`,
      summary: "Issues a new API key for a customer (the key is returned once)",
      tags,
      guards: [ctx.adminAuth],
      body: {
        customer_id: customerIdRule,
        label: {
          optional: true,
          isString: { errorMessage: 'label must be a string', bail: true },
          trim: true,
          isLength: { options: { min: 1, max: 100 }, errorMessage: 'label must be 1 to 100 characters' },
        },
      },
      status: 201,
      errors: ['FORBIDDEN', 'CUSTOMER_NOT_FOUND'],
      response: issuedApiKeySchema,
      handler: (req) => issueCustomerApiKey(ctx.db, req.body.customer_id, req.body.label ?? DEFAULT_API_KEY_LABEL),
    }),
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/customer/get_api_key_list`,
      summary: "A customer's API keys, newest first (live and revoked)",
      description: 'limit 1..100 (default 20), offset 0..100000 (default 0).',
      tags,
      guards: [ctx.adminAuth],
      body: { customer_id: customerIdRule, ...offsetPageRules('body') },
      errors: ['FORBIDDEN', 'CUSTOMER_NOT_FOUND'],
      response: {
        type: 'object',
        required: ['api_keys', 'pagination'],
        properties: { api_keys: { type: 'array', items: apiKeySchema }, pagination: paginationSchema },
      },
      handler: (req) => getCustomerApiKeys(ctx.db, req.body.customer_id, readOffsetPage(req.body)),
    }),
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/customer/revoke_api_key`,
      summary: "Revokes one of a customer's API keys; tss-api refuses it from then on",
      tags,
      guards: [ctx.adminAuth],
      body: {
        customer_id: customerIdRule,
        api_key_id: { exists: { errorMessage: 'api_key_id is required', bail: true }, isUUID: { errorMessage: 'api_key_id must be a UUID' } },
      },
      errors: ['FORBIDDEN', 'API_KEY_NOT_FOUND'],
      response: apiKeySchema,
      handler: (req) => revokeCustomerApiKey(ctx.db, req.body.customer_id, req.body.api_key_id),
    }),
  ];
}
