import type { VerifiedIdentity } from '@svc/auth';

/**
 * The email a user account is stored under. Telegram (and X without the email scope) give no
 * address, so the account gets `<provider id>@<provider>.invalid`: unique, clearly not
 * deliverable (RFC 2606 reserves .invalid), and still shaped like an email for user/check.
 */
export function accountEmail(identity: VerifiedIdentity): string {
  return identity.email ?? `${identity.subject}@${identity.authType.toLowerCase()}.invalid`;
}
