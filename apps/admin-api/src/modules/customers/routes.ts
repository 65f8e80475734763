import {
  apiKeySchema,
  customerDetailSchema,
  customerSchema,
  dashboardUserSchema,
  emailField,
  issuedApiKeySchema,
  labelField,
  newPasswordField,
  offsetPageFields,
  paginationSchema,
  readOffsetPage,
} from '@svc/accounts';
import { defineRoute, field, type RouteDef } from '@svc/http';
import { API_PREFIX, type AdminContext } from '../../kernel/context.js';
import { LOGO_MAX_BYTES, logoUpload, uploadedLogo } from './logo-upload.js';
import type { CustomersService } from './service.js';

export function customerRoutes(service: CustomersService, ctx: AdminContext): RouteDef[] {
  const tags = ['customers'];
  return [
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/customer/create_customer`,
      summary: 'Creates a customer with its first dashboard user and a first API key',
      description:
        'multipart/form-data. The dashboard user gets the same email and password and is marked verified. ' +
        `The optional logo is PNG, JPEG or WebP, at most ${LOGO_MAX_BYTES / 1024} KB (type checked against the file's bytes): ` +
        'another type answers 400 INVALID_REQUEST, a larger file 413 PAYLOAD_TOO_LARGE. The API key is returned once.',
      tags,
      guards: [ctx.adminAuth],
      contentType: 'multipart/form-data',
      before: logoUpload,
      body: { email: emailField(), password: newPasswordField(), label: labelField },
      bodyDocs: { logo: { type: 'string', format: 'binary', description: 'Optional PNG, JPEG or WebP, <= 512 KB' } },
      status: 201,
      errors: ['FORBIDDEN', 'EMAIL_ALREADY_EXISTS', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
      response: {
        type: 'object',
        required: ['customer_id', 'customer', 'user', 'api_key'],
        properties: { customer_id: { type: 'string', format: 'uuid' }, customer: customerDetailSchema, user: dashboardUserSchema, api_key: issuedApiKeySchema },
      },
      handler: (req) =>
        service.create({ email: req.body.email, password: req.body.password, label: req.body.label, logo: uploadedLogo(req) }),
    }),
    defineRoute({
      method: 'get',
      path: `${API_PREFIX}/customer/get_customer_list`,
      summary: 'Customers, newest first, each with its API keys',
      description: 'limit 1..100 (default 20), offset 0..100000 (default 0).',
      tags,
      guards: [ctx.adminAuth],
      query: offsetPageFields(),
      errors: ['FORBIDDEN'],
      response: {
        type: 'object',
        required: ['customers', 'pagination'],
        properties: {
          customers: {
            type: 'array',
            items: {
              ...customerSchema,
              required: [...customerSchema.required, 'dashboard_user_count', 'api_keys'],
              properties: { ...customerSchema.properties, dashboard_user_count: { type: 'integer' }, api_keys: { type: 'array', items: apiKeySchema } },
            },
          },
          pagination: paginationSchema,
        },
      },
      handler: (req) => service.list(readOffsetPage(req.query as Record<string, unknown>)),
    }),
    defineRoute({
      method: 'get',
      path: `${API_PREFIX}/customer/get_customer/:customer_id`,
      summary: 'One customer with its dashboard user accounts and API keys',
      tags,
      guards: [ctx.adminAuth],
      params: { customer_id: field.uuid() },
      errors: ['FORBIDDEN', 'CUSTOMER_NOT_FOUND'],
      response: {
        ...customerDetailSchema,
        required: [...customerDetailSchema.required, 'users', 'api_keys'],
        properties: {
          ...customerDetailSchema.properties,
          users: { type: 'array', items: dashboardUserSchema },
          api_keys: { type: 'array', items: apiKeySchema },
        },
      },
      handler: (req) => service.get(String(req.params.customer_id)),
    }),
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/customer/delete_customer`,
      summary: 'Deletes a customer and its dashboard users; its API keys stop working at once',
      tags,
      guards: [ctx.adminAuth],
      body: { customer_id: field.uuid() },
      errors: ['FORBIDDEN', 'CUSTOMER_NOT_FOUND'],
      response: {
        type: 'object',
        required: ['customer_id', 'user_ids', 'revoked_api_key_count'],
        properties: {
          customer_id: { type: 'string', format: 'uuid' },
          user_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, description: 'The deleted dashboard users' },
          revoked_api_key_count: { type: 'integer', description: 'Live API keys revoked by the deletion' },
        },
      },
      handler: (req) => service.delete(req.body.customer_id),
    }),
  ];
}
