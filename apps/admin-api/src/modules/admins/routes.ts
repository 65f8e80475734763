import { emailField, loginPasswordField, loginRateLimit } from '@svc/accounts';
import { authClaims } from '@svc/auth';
import { defineRoute, type RouteDef } from '@svc/http';
import { API_PREFIX, type AdminContext } from '../../kernel/context.js';
import type { AdminsService } from './service.js';

export const adminSchema = {
  type: 'object',
  required: ['admin_id', 'email', 'created_at'],
  properties: {
    admin_id: { type: 'string', format: 'uuid' },
    email: { type: 'string', format: 'email' },
    created_at: { type: 'string', format: 'date-time' },
  },
};

export function adminUserRoutes(service: AdminsService, ctx: AdminContext): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/user/login`,
      summary: 'Admin sign-in: email and password for an admin JWT',
      description: 'Public. Rate limited to 10 attempts per 15 minutes per client IP and email.',
      tags: ['admin user'],
      guards: [loginRateLimit(ctx.rateLimits, 'adminLoginRateLimit')],
      body: { email: emailField(), password: loginPasswordField() },
      errors: ['INVALID_CREDENTIALS', 'RATE_LIMITED'],
      response: {
        type: 'object',
        required: ['token', 'expires_at', 'admin'],
        properties: {
          token: { type: 'string', description: 'Admin JWT (Authorization: Bearer)' },
          expires_at: { type: 'string', format: 'date-time' },
          admin: adminSchema,
        },
      },
      handler: (req) => service.login(req.body.email, req.body.password),
    }),
    defineRoute({
      method: 'post',
      path: `${API_PREFIX}/user/logout`,
      summary: 'Revokes the admin JWT of this request until it expires',
      tags: ['admin user'],
      guards: [ctx.adminAuth],
      errors: ['FORBIDDEN'],
      response: { type: 'object', required: ['message'], properties: { message: { type: 'string', const: 'Logged out' } } },
      handler: (_req, res) => service.logout(authClaims(res)),
    }),
  ];
}
