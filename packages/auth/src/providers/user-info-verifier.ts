import { createHash } from 'node:crypto';
import { IdTokenError } from './id-token-error.js';
import type { AuthType, UserInfoProviderConfig, VerifiedIdentity } from './types.js';

/** What a provider's user-info answer says about the person. */
export interface UserInfoProfile {
  id: string;
  email: string | null;
}

/** How one provider's user-info endpoint is called and read. */
export interface UserInfoDialect {
  authType: AuthType;
  /** Path (and query) under the configured base URL. */
  path: string;
  /** Reads the JSON answer; null when it does not name a user. */
  read(body: unknown): UserInfoProfile | null;
}

const ACCESS_TOKEN = /^[\x21-\x7e]{8,4096}$/;

/**
 * Access tokens are opaque to us, so the only real check is asking the provider who owns the
 * token: a 2xx answer naming a user means the token is live and belongs to that user.
 */
export function createUserInfoVerifier(dialect: UserInfoDialect, config: UserInfoProviderConfig) {
  const base = config.baseUrl.replace(/\/+$/, '');
  return async (accessToken: string): Promise<VerifiedIdentity> => {
    if (!ACCESS_TOKEN.test(accessToken)) throw new IdTokenError('malformed', `${dialect.authType} access token is malformed`);
    let response: Response;
    try {
      response = await fetch(`${base}${dialect.path}`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(config.timeoutMs ?? 5000),
      });
    } catch {
      throw new IdTokenError('provider_unreachable', `${dialect.authType} user-info endpoint unreachable`);
    }
    if (!response.ok) throw new IdTokenError('provider_rejected', `${dialect.authType} refused the access token (${response.status})`);
    const profile = dialect.read(await response.json().catch(() => null));
    if (!profile) throw new IdTokenError('provider_rejected', `${dialect.authType} user-info answer names no user`);
    return {
      authType: dialect.authType,
      subject: profile.id,
      email: profile.email,
      expiresAt: new Date(Date.now() + (config.acceptForSeconds ?? 600) * 1000),
      tokenId: `${dialect.authType}|${profile.id}|${createHash('sha256').update(accessToken).digest('hex')}`,
    };
  };
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const idOf = (value: unknown): string | null => (typeof value === 'string' && /^[0-9A-Za-z_-]{1,64}$/.test(value) ? value : null);
const emailOf = (value: unknown): string | null => (typeof value === 'string' && value.includes('@') ? value.trim().toLowerCase() : null);

/** X API v2: GET /2/users/me; `confirmed_email` is only present with the email scope. */
export const X_USER_INFO: UserInfoDialect = {
  authType: 'X',
  path: '/2/users/me?user.fields=confirmed_email',
  read(body) {
    const data = asRecord(asRecord(body)?.data);
    const id = idOf(data?.id);
    return id ? { id, email: emailOf(data?.confirmed_email) } : null;
  },
};

/** Discord API: GET /users/@me; the email counts only when Discord marks it verified. */
export const DISCORD_USER_INFO: UserInfoDialect = {
  authType: 'DISCORD',
  path: '/users/@me',
  read(body) {
    const user = asRecord(body);
    const id = idOf(user?.id);
    if (!id) return null;
    return { id, email: user?.verified === true ? emailOf(user.email) : null };
  },
};
