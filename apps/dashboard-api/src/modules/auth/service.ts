import {
  checkLogin,
  createDashboardUser,
  customerDetailView,
  dashboardUserView,
  findCustomer,
  findDashboardUser,
  findDashboardUserByEmail,
  hashPassword,
  setDashboardUserPassword,
} from '@svc/accounts';
import type { ServiceClaims } from '@svc/auth';
import { isUniqueViolation, type CustomerDashboardUser } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { DashboardContext } from '../../context.js';
import { markEmailVerified, recordLogin } from './repo.js';
import { passwordResetMail, signupMail } from './verification-mail.js';

const unauthorized = () => new AppError('UNAUTHORIZED', 'Unauthorized');

/** A customer JWT and what the dashboard shows after sign-in. */
async function session(ctx: DashboardContext, user: CustomerDashboardUser) {
  const customer = await findCustomer(ctx.db, user.customerId);
  if (!customer) throw unauthorized();
  const { token, claims } = ctx.jwt.sign('customer', user.id, { email: user.email, customer_id: user.customerId });
  return {
    token,
    expires_at: new Date(claims.exp * 1000).toISOString(),
    user: dashboardUserView(user),
    customer: customerDetailView(customer),
  };
}

/**
 * The password is checked before the verification state, so EMAIL_NOT_VERIFIED is only
 * ever told to someone who knows the password.
 */
export async function signIn(ctx: DashboardContext, email: string, password: string) {
  const user = await checkLogin(await findDashboardUserByEmail(ctx.db, email), password, (u, hash) => setDashboardUserPassword(ctx.db, u.id, hash));
  if (!user) throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password');
  if (!user.emailVerifiedAt) throw new AppError('EMAIL_NOT_VERIFIED', 'Email is not verified');
  await recordLogin(ctx.db, user.id);
  return session(ctx, { ...user, lastLoginAt: new Date() });
}

/** Creates an unverified account of a customer and mails it a code. */
export async function signUp(ctx: DashboardContext, input: { email: string; password: string; customerId: string }) {
  if (!(await findCustomer(ctx.db, input.customerId))) throw new AppError('CUSTOMER_NOT_FOUND', 'Customer not found');
  const passwordHash = await hashPassword(input.password);
  try {
    await createDashboardUser(ctx.db, { customerId: input.customerId, email: input.email, passwordHash, emailVerifiedAt: null });
  } catch (error) {
    if (isUniqueViolation(error, 'email')) throw new AppError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
    throw error;
  }
  const { code, expiresAt } = await ctx.codes.issue('DASHBOARD_SIGNUP', input.email);
  await ctx.mailer.send(signupMail(input.email, code, ctx.codes.ttlMinutes));
  return { email: input.email, verification_required: true, code_expires_at: expiresAt.toISOString() };
}

export async function verifyEmail(ctx: DashboardContext, email: string, code: string) {
  const user = await findDashboardUserByEmail(ctx.db, email);
  if (!user || user.emailVerifiedAt) throw new AppError('INVALID_CODE', 'Invalid verification code');
  const codeId = await ctx.codes.check('DASHBOARD_SIGNUP', email, code);
  const now = new Date();
  await ctx.db.$transaction(async (tx) => {
    await ctx.codes.consume(tx, codeId);
    await markEmailVerified(tx, user.id, now);
  });
  return { email, email_verified: true };
}

const SENT_MSG = 'If an account needs it, a code was sent to this address';

/**
 * Mails that answer the same whether or not the account exists: the mail is sent after the
 * response, so neither the answer nor its timing tells whether the address has an account.
 */
function sendLater(ctx: DashboardContext, work: () => Promise<void>): { message: string } {
  setImmediate(() => {
    work().catch((error: unknown) => ctx.logger.error('mail not sent', { error: String(error) }));
  });
  return { message: SENT_MSG };
}

export function resendVerification(ctx: DashboardContext, email: string) {
  return sendLater(ctx, async () => {
    const user = await findDashboardUserByEmail(ctx.db, email);
    if (!user || user.emailVerifiedAt) return;
    const { code } = await ctx.codes.issue('DASHBOARD_SIGNUP', email);
    await ctx.mailer.send(signupMail(email, code, ctx.codes.ttlMinutes));
  });
}

export function requestPasswordReset(ctx: DashboardContext, email: string) {
  return sendLater(ctx, async () => {
    if (!(await findDashboardUserByEmail(ctx.db, email))) return;
    const { code } = await ctx.codes.issue('PASSWORD_RESET', email);
    await ctx.mailer.send(passwordResetMail(email, code, ctx.codes.ttlMinutes));
  });
}

/** Sets a new password with a mailed code; the code also proves the address, so it counts as verified. */
export async function resetPassword(ctx: DashboardContext, email: string, code: string, newPassword: string) {
  const user = await findDashboardUserByEmail(ctx.db, email);
  if (!user) throw new AppError('INVALID_CODE', 'Invalid verification code');
  const codeId = await ctx.codes.check('PASSWORD_RESET', email, code);
  const passwordHash = await hashPassword(newPassword);
  const now = new Date();
  await ctx.db.$transaction(async (tx) => {
    await ctx.codes.consume(tx, codeId);
    await setDashboardUserPassword(tx, user.id, passwordHash);
    await markEmailVerified(tx, user.id, now);
  });
  return { message: 'Password changed' };
}

/** The account behind a customer JWT; gone (customer or user deleted) means 401. */
export async function currentUser(ctx: DashboardContext, claims: ServiceClaims): Promise<CustomerDashboardUser> {
  const user = await findDashboardUser(ctx.db, claims.sub);
  if (!user || user.customerId !== claims.customer_id || !user.emailVerifiedAt) throw unauthorized();
  return user;
}

/**
 * Exchanges a live customer JWT for a new one and revokes the old: a token refreshes once
 * (of concurrent refreshes exactly one wins), so a copied token cannot be kept alive
 * alongside its owner's.
 */
export async function refresh(ctx: DashboardContext, claims: ServiceClaims) {
  const user = await currentUser(ctx, claims);
  if (!(await ctx.revocation.revokeOnce(claims))) throw unauthorized();
  return session(ctx, user);
}

export async function signOut(ctx: DashboardContext, claims: ServiceClaims) {
  await ctx.revocation.revoke(claims);
  return { message: 'Signed out' };
}
