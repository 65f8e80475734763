import { createHash } from 'node:crypto';
import { IdTokenError } from './id-token-error.js';
import type { AuthType, UserInfoProviderConfig, VerifiedIdentity } from './types.js';

/** What a provider's answers say about the person. */
export interface UserInfoProfile {
  id: string;
  email: string | null;
  /** When the provider says the access token expires, if it says. */
  expiresAt?: Date;
}

/**
 * GET of a path (and query) under the provider's base URL, with the access token as Bearer:
 * resolves the JSON answer (null when it is not JSON); a refusal or failure throws IdTokenError.
 */
export type ProviderGet = (path: string) => Promise<unknown>;

/** How one provider is asked about an access token. */
export interface UserInfoDialect {
  authType: AuthType;
  /**
   * Asks the provider through `get` and says whom the token names; null when the answers name
   * no user. Throws IdTokenError to refuse a token (one issued to another application).
   */
  identify(get: ProviderGet): Promise<UserInfoProfile | null>;
}

const ACCESS_TOKEN = /^[\x21-\x7e]{8,4096}$/;

/**
 * Access tokens are opaque to us, so the only real check is asking the provider about the
 * token: a 2xx answer naming a user means the token is live and belongs to that user. Whether
 * it was issued to this deployment's application is the dialect's part (Discord checks it;
 * X cannot, see XProviderConfig).
 */
export function createUserInfoVerifier(dialect: UserInfoDialect, config: UserInfoProviderConfig) {
  const base = config.baseUrl.replace(/\/+$/, '');
  const acceptForMs = (config.acceptForSeconds ?? 600) * 1000;
  return async (accessToken: string): Promise<VerifiedIdentity> => {
    if (!ACCESS_TOKEN.test(accessToken)) throw new IdTokenError('malformed', `${dialect.authType} access token is malformed`);
    // One deadline for every call of this verification: a guard never waits longer than timeoutMs.
    const signal = AbortSignal.timeout(config.timeoutMs ?? 5000);
    const get: ProviderGet = async (path) => {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal });
      } catch {
        throw new IdTokenError('provider_unreachable', `${dialect.authType} API unreachable`);
      }
      if (!response.ok) throw new IdTokenError('provider_rejected', `${dialect.authType} refused the access token (${response.status})`);
      return response.json().catch(() => null);
    };
    const profile = await dialect.identify(get);
    if (!profile) throw new IdTokenError('provider_rejected', `${dialect.authType} answer names no user`);
    const now = Date.now();
    let expiresAt = now + acceptForMs;
    if (profile.expiresAt) {
      if (profile.expiresAt.getTime() <= now) throw new IdTokenError('expired', `${dialect.authType} access token has expired`);
      expiresAt = Math.min(expiresAt, profile.expiresAt.getTime());
    }
    return {
      authType: dialect.authType,
      subject: profile.id,
      email: profile.email,
      expiresAt: new Date(expiresAt),
      tokenId: `${dialect.authType}|${profile.id}|${createHash('sha256').update(accessToken).digest('hex')}`,
    };
  };
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const idOf = (value: unknown): string | null => (typeof value === 'string' && /^[0-9A-Za-z_-]{1,64}$/.test(value) ? value : null);
const emailOf = (value: unknown): string | null => (typeof value === 'string' && value.includes('@') ? value.trim().toLowerCase() : null);

/**
 * X API v2: GET /2/users/me; `confirmed_email` is only present with the email scope. X says
 * nothing about the app a token was issued to, so this accepts tokens of any X app
 * (XProviderConfig.acceptForeignAppTokens).
 */
export const X_USER_INFO: UserInfoDialect = {
  authType: 'X',
  async identify(get) {
    const data = asRecord(asRecord(await get('/2/users/me?user.fields=confirmed_email'))?.data);
    const id = idOf(data?.id);
    return id ? { id, email: emailOf(data?.confirmed_email) } : null;
  },
};

/**
 * Discord. `GET /oauth2/@me` describes the token's authorization: `application` (the app it
 * was issued to), `scopes`, `expires` and, with the identify scope, `user`. The token counts only
 * when `application.id` is one of `clientIds`. That answer's user has no email; `GET /users/@me`
 * has it, and only with the email scope, so it is asked only when the token has that scope
 * (one request without it, two with it). The email counts only when Discord marks it verified.
 */
export function discordUserInfo(clientIds: readonly string[]): UserInfoDialect {
  const ours = new Set(clientIds);
  return {
    authType: 'DISCORD',
    async identify(get) {
      const authorization = asRecord(await get('/oauth2/@me'));
      const applicationId = asRecord(authorization?.application)?.id;
      if (typeof applicationId !== 'string' || !ours.has(applicationId)) {
        throw new IdTokenError('foreign_application', 'DISCORD access token was issued to another application');
      }
      const id = idOf(asRecord(authorization?.user)?.id);
      if (!id) return null;
      const scopes = Array.isArray(authorization?.scopes) ? (authorization.scopes as unknown[]) : [];
      const expires = typeof authorization?.expires === 'string' ? new Date(authorization.expires) : undefined;
      let email: string | null = null;
      if (scopes.includes('email')) {
        const user = asRecord(await get('/users/@me'));
        if (idOf(user?.id) !== id) throw new IdTokenError('provider_rejected', 'DISCORD named two different users for one token');
        email = user?.verified === true ? emailOf(user.email) : null;
      }
      return { id, email, ...(expires && !Number.isNaN(expires.getTime()) ? { expiresAt: expires } : {}) };
    },
  };
}
