import {
  checkLogin,
  credentialsVersionClaim,
  customerDetailView,
  dashboardUserView,
  hashPassword,
  requireCustomer,
  tokenIssuedUnderCurrentCredentials,
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
  /** How long after a sign-in its tokens may still be refreshed (DASHBOARD_SESSION_LIFETIME). */
  sessionLifetimeSeconds: number;
}

/**
 * The claim of a customer JWT holding when its session began: the sign-in's time, in seconds
 * since the epoch (the name and meaning of OpenID Connect's `auth_time`). A refresh copies it.
 */
export const AUTH_TIME_CLAIM = 'auth_time';

const nowSeconds = () => Math.floor(Date.now() / 1000);

const unauthorized = () => new AppError('UNAUTHORIZED', 'Unauthorized');

const SENT_MSG = 'If an account needs it, a code was sent to this address';

/** Dashboard accounts: sign-in with email and password, signup verified by a mailed code, password reset, refresh. */
export function authService({ repo, users, customers, jwt, revocation, codes, mailer, logger, sessionLifetimeSeconds }: AuthServiceDeps) {
  /**
   * A customer JWT and what the dashboard shows after sign-in. `authTime`: when the session's
   * sign-in was. The token carries the credentials version of `user` as read before the password
   * was checked (sign-in) or the token was (refresh): a reset committed since then revokes it too.
   */
  async function session(user: CustomerDashboardUser, authTime: number) {
    const customer = await customers.find(user.customerId);
    if (!customer) throw unauthorized();
    const { token, claims } = jwt.sign('customer', user.id, {
      email: user.email,
      customer_id: user.customerId,
      [AUTH_TIME_CLAIM]: authTime,
      ...credentialsVersionClaim(user),
    });
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

  /**
   * The account behind a customer JWT, read on every call: gone (customer or user deleted), or
   * its credentials changed since the token was issued (a password reset), means 401.
   */
  async function currentUser(claims: ServiceClaims): Promise<CustomerDashboardUser> {
    const user = await users.find(claims.sub);
    if (!user || user.customerId !== claims.customer_id || !user.emailVerifiedAt) throw unauthorized();
    if (!tokenIssuedUnderCurrentCredentials(claims, user)) throw unauthorized();
    return user;
  }

  return {
    currentUser,

    /**
     * The password is checked before the verification state, so EMAIL_NOT_VERIFIED is only
     * ever told to someone who knows the password.
     */
    async signIn(email: string, password: string) {
      const user = await checkLogin(await users.findByEmail(email), password, (u, hash) => users.setPassword(u.id, hash, u.passwordHash));
      if (!user) throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password');
      if (!user.emailVerifiedAt) throw new AppError('EMAIL_NOT_VERIFIED', 'Email is not verified');
      await repo.recordLogin(user.id);
      return session({ ...user, lastLoginAt: new Date() }, nowSeconds());
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

    /**
     * Sets a new password with a mailed code; the code also proves the address, so it counts as
     * verified. Every token of the account issued before it is revoked (credentials version).
     */
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
     * alongside its owner's. The new token keeps the session's sign-in time, and refresh is
     * refused once that is `sessionLifetimeSeconds` old, so no chain of refreshes outlives it. A
     * token without the claim (issued before it existed) is refused: sign in again. A refused
     * refresh revokes nothing.
     */
    async refresh(claims: ServiceClaims) {
      const user = await currentUser(claims);
      const authTime = claims[AUTH_TIME_CLAIM];
      if (typeof authTime !== 'number' || nowSeconds() >= authTime + sessionLifetimeSeconds) throw unauthorized();
      if (!(await revocation.revokeOnce(claims))) throw unauthorized();
      return session(user, authTime);
    },

    /** Revokes this token; one already cut off (reset, deleted account) is 401 like on any other route. */
    async signOut(claims: ServiceClaims) {
      await currentUser(claims);
      await revocation.revoke(claims);
      return { message: 'Signed out' };
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
