import argon2 from 'argon2';
import { field, type Field } from '@svc/http';

/**
 * Password policy of admin and dashboard accounts (docs/api/*.md): 10 to 128 characters.
 * Length is what makes a password strong; composition rules mostly push people to
 * predictable patterns (NIST SP 800-63B), so there are none. The upper bound keeps a
 * single hash request cheap.
 */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane): ~30-60 ms per hash
 * on a server core, too slow for offline guessing at scale, fast enough for a login.
 */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

// A hash of a random password nobody knows, computed once: verifying against it when the
// account does not exist costs the same as a real verify, so response time does not tell
// whether an email has an account.
let dummyHash: Promise<string> | undefined;
function dummy(): Promise<string> {
  dummyHash ??= argon2.hash(`dummy-${Math.random()}-${Date.now()}`, ARGON2_OPTIONS);
  return dummyHash;
}

/**
 * Checks a password against a stored hash, or spends the same work on a dummy hash when
 * there is no account (`hash` null) and answers false.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    await argon2.verify(await dummy(), password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** True when a stored hash was made with weaker parameters than today's and should be redone. */
export function passwordNeedsRehash(hash: string): boolean {
  try {
    return argon2.needsRehash(hash, ARGON2_OPTIONS);
  } catch {
    return true;
  }
}

/** A new password field (the policy above). */
export function newPasswordField(): Field {
  return field.string({
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
  });
}

/** A password typed at login: any non-empty string up to the policy's maximum. */
export function loginPasswordField(): Field {
  return field.string({ min: 1, max: PASSWORD_MAX_LENGTH });
}

/**
 * The password check of a login: `account` null (unknown email) still costs one argon2
 * verify. On success a hash made with older parameters is replaced through `saveRehash`.
 */
export async function checkLogin<T extends { passwordHash: string }>(
  account: T | null,
  password: string,
  saveRehash: (account: T, newHash: string) => Promise<unknown>,
): Promise<T | null> {
  const ok = await verifyPassword(account?.passwordHash ?? null, password);
  if (!ok || !account) return null;
  if (passwordNeedsRehash(account.passwordHash)) await saveRehash(account, await hashPassword(password));
  return account;
}
