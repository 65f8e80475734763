import {
  checkLogin,
  customerDetailView,
  dashboardUserView,
  hashPassword,
  requireCustomer,
  type CustomerRepo,
  type DashboardUserRepo,
  type EmailCodes,
  type TokenRevocation,
} from '@svc/accounts';
import type { ServiceClaims, ServiceJwt } from '@svc/auth';
import { isUniqueViolation, type CustomerDashboardUser } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { Logger } from '@svc/http';
import type { Mailer } from '@svc/mailer';
import type { AuthRepo } from './repo.js';
import { passwordResetMail, signupMail } from './verification-mail.js';

export interface AuthServiceDeps {
  repo: AuthRepo;
  users: DashboardUserRepo;
  customers: CustomerRepo;
  jwt: ServiceJwt;
  revocation: TokenRevocation;
  codes: EmailCodes;
  mailer: Mailer;
  logger: Logger;
}

const unauthorized = () => new AppError('UNAUTHORIZED', 'Unauthorized');

const SENT_MSG = 'If an account needs it, a code was sent to this address';

/** Dashboard accounts: sign-in with email and password, signup verified by a mailed code, password reset, refresh. */
export function authService({ repo, users, customers, jwt, revocation, codes, mailer, logger }: AuthServiceDeps) {
  /** A customer JWT and what the dashboard shows after sign-in. */
  async function session(user: CustomerDashboardUser) {
    const customer = await customers.find(user.customerId);
    if (!customer) throw unauthorized();
    const { token, claims } = jwt.sign('customer', user.id, { email: user.email, customer_id: user.customerId });
    return {
      token,
      expires_at: new Date(claims.exp * 1000).toISOString(),
      user: dashboardUserView(user),
      customer: customerDetailView(customer),
    };
  }

  /**
   * Mails that answer the same whether or not the account exists: the mail is sent after the
   * response, so neither the answer nor its timing tells whether the address has an account.
   */
  function sendLater(work: () => Promise<void>): { message: string } {
    setImmediate(() => {
      work().catch((error: unknown) => logger.error('mail not sent', { error: String(error) }));
    });
    return { message: SENT_MSG };
  }

  /** The account behind a customer JWT; gone (customer or user deleted) means 401. */
  async function currentUser(claims: ServiceClaims): Promise<CustomerDashboardUser> {
    const user = await users.find(claims.sub);
    if (!user || user.customerId !== claims.customer_id || !user.emailVerifiedAt) throw unauthorized();
    return user;
  }

  return {
    currentUser,

    /**
     * The password is checked before the verification state, so EMAIL_NOT_VERIFIED is only
     * ever told to someone who knows the password.
     */
    async signIn(email: string, password: string) {
      const user = await checkLogin(await users.findByEmail(email), password, (u, hash) => users.setPassword(u.id, hash));
      if (!user) throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password');
      if (!user.emailVerifiedAt) throw new AppError('EMAIL_NOT_VERIFIED', 'Email is not verified');
      await repo.recordLogin(user.id);
      return session({ ...user, lastLoginAt: new Date() });
    },

    /** Creates an unverified account of a customer and mails it a code. */
    async signUp(input: { email: string; password: string; customerId: string }) {
      await requireCustomer(customers, input.customerId);
      const passwordHash = await hashPassword(input.password);
      try {
        await users.create({ customerId: input.customerId, email: input.email, passwordHash, emailVerifiedAt: null });
      } catch (error) {
        if (isUniqueViolation(error, 'email')) throw new AppError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
        throw error;
      }
      const { code, expiresAt } = await codes.issue('DASHBOARD_SIGNUP', input.email);
      await mailer.send(signupMail(input.email, code, codes.ttlMinutes));
      return { email: input.email, verification_required: true, code_expires_at: expiresAt.toISOString() };
    },

    async verifyEmail(email: string, code: string) {
      const user = await users.findByEmail(email);
      if (!user || user.emailVerifiedAt) throw new AppError('INVALID_CODE', 'Invalid verification code');
      const codeId = await codes.check('DASHBOARD_SIGNUP', email, code);
      await repo.verifyEmail(user.id, new Date(), (tx) => codes.consume(tx, codeId));
      return { email, email_verified: true };
    },

    resendVerification(email: string) {
      return sendLater(async () => {
        const user = await users.findByEmail(email);
        if (!user || user.emailVerifiedAt) return;
        const { code } = await codes.issue('DASHBOARD_SIGNUP', email);
        await mailer.send(signupMail(email, code, codes.ttlMinutes));
      });
    },

    requestPasswordReset(email: string) {
      return sendLater(async () => {
        if (!(await users.findByEmail(email))) return;
        const { code } = await codes.issue('PASSWORD_RESET', email);
        await mailer.send(passwordResetMail(email, code, codes.ttlMinutes));
      });
    },

    /** Sets a new password with a mailed code; the code also proves the address, so it counts as verified. */
    async resetPassword(email: string, code: string, newPassword: string) {
      const user = await users.findByEmail(email);
      if (!user) throw new AppError('INVALID_CODE', 'Invalid verification code');
      const codeId = await codes.check('PASSWORD_RESET', email, code);
      const passwordHash = await hashPassword(newPassword);
      await repo.resetPassword(user.id, passwordHash, new Date(), (tx) => codes.consume(tx, codeId));
      return { message: 'Password changed' };
    },

    /**
     * Exchanges a live customer JWT for a new one and revokes the old: a token refreshes once
     * (of concurrent refreshes exactly one wins), so a copied token cannot be kept alive
     * alongside its owner's.
     */
    async refresh(claims: ServiceClaims) {
      const user = await currentUser(claims);
      if (!(await revocation.revokeOnce(claims))) throw unauthorized();
      return session(user);
    },

    async signOut(claims: ServiceClaims) {
      await revocation.revoke(claims);
      return { message: 'Signed out' };
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
