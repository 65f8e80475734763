import {
  codeRateLimit,
  customerDetailSchema,
  dashboardUserSchema,
  emailCodeField,
  emailField,
  loginPasswordField,
  loginRateLimit,
  mailRateLimit,
  newPasswordField,
} from '@svc/accounts';
import { authClaims } from '@svc/auth';
import { defineRoute, field, rateLimitGuard, type RouteDef } from '@svc/http';
import { API_PREFIX, type DashboardContext } from '../../kernel/context.js';
import type { AuthService } from './service.js';

const BASE = `${API_PREFIX}/customer/auth`;

const sessionSchema = {
  type: 'object',
  required: ['token', 'expires_at', 'user', 'customer'],
  properties: {
    token: { type: 'string', description: 'Customer JWT (Authorization: Bearer)' },
    expires_at: { type: 'string', format: 'date-time' },
    user: dashboardUserSchema,
    customer: customerDetailSchema,
  },
};

const messageSchema = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };

export function authRoutes(service: AuthService, ctx: DashboardContext): RouteDef[] {
  const tags = ['customer auth'];
  return [
    defineRoute({
      method: 'post',
      path: `${BASE}/signin`,
      summary: 'Dashboard sign-in: email and password for a customer JWT',
      description: 'Public. 403 EMAIL_NOT_VERIFIED until the signup code was used. 10 attempts per 15 minutes per IP and email.',
      tags,
      guards: [loginRateLimit(ctx.rateLimits, 'dashboardSigninRateLimit')],
      body: { email: emailField(), password: loginPasswordField() },
      errors: ['INVALID_CREDENTIALS', 'EMAIL_NOT_VERIFIED', 'RATE_LIMITED'],
      response: sessionSchema,
      handler: (req) => service.signIn(req.body.email, req.body.password),
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/signup`,
      summary: "Creates an unverified dashboard account of a customer and mails a 6-digit code",
      description:
        'Public. Password: 10 to 128 characters. The code expires after EMAIL_VERIFICATION_EXPIRATION_MINUTES (default 5); ' +
        'use it with verify_email before signing in. 10 signups per hour per IP.',
      tags,
      guards: [rateLimitGuard({ name: 'signupRateLimit', windowMs: 60 * 60_000, limit: 10, store: ctx.rateLimits('signupRateLimit') })],
      body: {
        email: emailField(),
        password: newPasswordField(),
        customer_id: field.uuid(),
      },
      status: 201,
      errors: ['CUSTOMER_NOT_FOUND', 'EMAIL_ALREADY_EXISTS', 'RATE_LIMITED'],
      response: {
        type: 'object',
        required: ['email', 'verification_required', 'code_expires_at'],
        properties: {
          email: { type: 'string', format: 'email' },
          verification_required: { type: 'boolean', const: true },
          code_expires_at: { type: 'string', format: 'date-time' },
        },
      },
      handler: (req) => service.signUp({ email: req.body.email, password: req.body.password, customerId: req.body.customer_id }),
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/verify_email`,
      summary: 'Verifies the email of a new account with the mailed code (once)',
      description: 'Each code allows 5 attempts; a new code (resend_verification) supersedes older ones.',
      tags,
      guards: [codeRateLimit(ctx.rateLimits, 'verifyEmailRateLimit')],
      body: { email: emailField(), code: emailCodeField() },
      errors: ['INVALID_CODE', 'CODE_EXPIRED', 'TOO_MANY_ATTEMPTS', 'RATE_LIMITED'],
      response: {
        type: 'object',
        required: ['email', 'email_verified'],
        properties: { email: { type: 'string', format: 'email' }, email_verified: { type: 'boolean', const: true } },
      },
      handler: (req) => service.verifyEmail(req.body.email, req.body.code),
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/resend_verification`,
      summary: 'Mails a new signup code to an unverified account',
      description: 'Answers the same whether or not such an account exists. 5 per 15 minutes per IP and email.',
      tags,
      guards: [mailRateLimit(ctx.rateLimits, 'resendVerificationRateLimit')],
      body: { email: emailField() },
      errors: ['RATE_LIMITED'],
      response: messageSchema,
      handler: (req) => service.resendVerification(req.body.email),
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/request_password_reset`,
      summary: 'Mails a password reset code',
      description: 'Answers the same whether or not the account exists. 5 per 15 minutes per IP and email.',
      tags,
      guards: [mailRateLimit(ctx.rateLimits, 'passwordResetMailRateLimit')],
      body: { email: emailField() },
      errors: ['RATE_LIMITED'],
      response: messageSchema,
      handler: (req) => service.requestPasswordReset(req.body.email),
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/reset_password`,
      summary: 'Sets a new password with the mailed reset code (once); also verifies the email',
      description: 'Revokes every customer JWT of the account issued before it (refreshed ones included), on every replica at once.',
      tags,
      guards: [codeRateLimit(ctx.rateLimits, 'resetPasswordRateLimit')],
      body: { email: emailField(), code: emailCodeField(), new_password: newPasswordField() },
      errors: ['INVALID_CODE', 'CODE_EXPIRED', 'TOO_MANY_ATTEMPTS', 'RATE_LIMITED'],
      response: messageSchema,
      handler: (req) => service.resetPassword(req.body.email, req.body.code, req.body.new_password),
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/refresh`,
      summary: 'Exchanges a live customer JWT for a new one; the old one is revoked',
      description:
        'Call before the token expires (expires_at). A token can be refreshed once. The new token keeps the sign-in time ' +
        '(claim auth_time); refresh answers 401 once the sign-in is DASHBOARD_SESSION_LIFETIME (default 7d) old: sign in again.',
      tags,
      guards: [ctx.customerAuth],
      errors: ['FORBIDDEN'],
      response: sessionSchema,
      handler: (_req, res) => service.refresh(authClaims(res)),
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/signout`,
      summary: 'Revokes the customer JWT of this request',
      tags,
      guards: [ctx.customerAuth],
      errors: ['FORBIDDEN'],
      response: messageSchema,
      handler: (_req, res) => service.signOut(authClaims(res)),
    }),
  ];
}
