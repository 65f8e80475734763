import {
  checkLogin,
  hashPassword,
  normalizeEmail,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type TokenRevocation,
} from '@svc/accounts';
import type { ServiceClaims, ServiceJwt } from '@svc/auth';
import { isUniqueViolation, type AdminUser } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { AdminsRepo } from './repo.js';

export function adminView(a: AdminUser) {
  return { admin_id: a.id, email: a.email, created_at: a.createdAt.toISOString() };
}

export interface AdminsServiceDeps {
  repo: AdminsRepo;
  jwt: ServiceJwt;
  revocation: TokenRevocation;
}

/** Admin sign-in and sign-out. */
export function adminsService({ repo, jwt, revocation }: AdminsServiceDeps) {
  return {
    async login(email: string, password: string) {
      const admin = await checkLogin(await repo.findByEmail(email), password, (a, hash) => repo.setPassword(a.id, hash, a.passwordHash));
      if (!admin) throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password');
      const { token, claims } = jwt.sign('admin', admin.id, { email: admin.email });
      return { token, expires_at: new Date(claims.exp * 1000).toISOString(), admin: adminView(admin) };
    },

    async logout(claims: ServiceClaims) {
      await revocation.revoke(claims);
      return { message: 'Logged out' };
    },
  };
}

export type AdminsService = ReturnType<typeof adminsService>;

export class CreateAdminError extends Error {
  override readonly name = 'CreateAdminError';
}

/** Checks the input of a new admin before anything is opened; returns the normalised email. */
export function checkNewAdmin(rawEmail: string, password: string): string {
  const email = normalizeEmail(rawEmail);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw new CreateAdminError('email must be a valid email address');
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new CreateAdminError(`password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  return email;
}

/** Creates an admin account (the `pnpm admin:create` command); applies the password policy itself. */
export async function createAdminAccount(repo: AdminsRepo, rawEmail: string, password: string): Promise<AdminUser> {
  const email = checkNewAdmin(rawEmail, password);
  try {
    return await repo.insert(email, await hashPassword(password));
  } catch (error) {
    if (isUniqueViolation(error)) throw new CreateAdminError(`an admin with email ${email} already exists`);
    throw error;
  }
}
