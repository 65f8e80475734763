import {
  allowedOriginsFields,
  apiKeySchema,
  DEFAULT_API_KEY_LABEL,
  issuedApiKeySchema,
  labelField,
  offsetPageFields,
  paginationSchema,
  readOffsetPage,
} from '@svc/accounts';
import { authClaims } from '@svc/auth';
import { defineRoute, field, type RouteDef } from '@svc/http';
import { API_PREFIX, type DashboardContext } from '../../kernel/context.js';
import type { ApiKeysService } from './service.js';

const REVOCATION_NOTE =
  'tss-api refuses a revoked key on every replica at most API_KEY_CACHE_SECONDS (default 5) after the revocation.';

/** The customer's own API keys: list, create (the key is shown once), update (label, allowed origins), revoke. */
export function apiKeyRoutes(service: ApiKeysService, ctx: DashboardContext): RouteDef[] {
  const tags = ['api keys'];
  const path = `${API_PREFIX}/customer/api_keys`;
  return [
    defineRoute({
      method: 'post',
      path,
      summary: "The customer's API keys, newest first (never the keys themselves)",
      description: 'Optional body: limit 1..100 (default 20), offset 0..100000 (default 0), JSON numbers.',
      tags,
      guards: [ctx.customerAuth],
      body: offsetPageFields(),
      errors: ['FORBIDDEN'],
      response: {
        type: 'object',
        required: ['api_keys', 'pagination'],
        properties: { api_keys: { type: 'array', items: apiKeySchema }, pagination: paginationSchema },
      },
      handler: (req, res) => service.list(authClaims(res), readOffsetPage(req.body)),
    }),
    defineRoute({
      method: 'post',
      path: `${path}/create`,
      summary: 'Issues a new API key for the customer (the key is in this response only)',
      description: `Optional body: label (1..100 characters, trimmed; default "${DEFAULT_API_KEY_LABEL}"), allowed_origins (see docs/api/dashboard.md).`,
      tags,
      guards: [ctx.customerAuth],
      body: { label: labelField.optional(), ...allowedOriginsFields() },
      status: 201,
      errors: ['FORBIDDEN'],
      response: issuedApiKeySchema,
      handler: (req, res) => service.create(authClaims(res), req.body.label ?? DEFAULT_API_KEY_LABEL, req.body.allowed_origins ?? []),
    }),
    defineRoute({
      method: 'post',
      path: `${path}/update`,
      summary: "Changes a key's label and/or replaces its allowed origins (at least one of them)",
      description: 'allowed_origins replaces the whole list; [] allows any origin again. tss-api sees the change within API_KEY_CACHE_SECONDS.',
      tags,
      guards: [ctx.customerAuth],
      body: { api_key_id: field.uuid(), label: labelField.optional(), ...allowedOriginsFields() },
      errors: ['FORBIDDEN', 'API_KEY_NOT_FOUND'],
      response: apiKeySchema,
      handler: (req, res) =>
        service.update(authClaims(res), req.body.api_key_id, {
          ...(req.body.label !== undefined ? { label: req.body.label as string } : {}),
          ...(req.body.allowed_origins !== undefined ? { allowedOrigins: req.body.allowed_origins as string[] } : {}),
        }),
    }),
    defineRoute({
      method: 'post',
      path: `${path}/revoke`,
      summary: "Revokes one of the customer's API keys (revoking a revoked key answers it unchanged)",
      description: REVOCATION_NOTE,
      tags,
      guards: [ctx.customerAuth],
      body: { api_key_id: field.uuid() },
      errors: ['FORBIDDEN', 'API_KEY_NOT_FOUND'],
      response: apiKeySchema,
      handler: (req, res) => service.revoke(authClaims(res), req.body.api_key_id),
    }),
  ];
}
