import { sendJson, startLocalServer } from './local-server.js';

export interface XTestUser {
  id: string;
  username?: string;
  confirmed_email?: string;
}
export interface DiscordTestUser {
  id: string;
  username?: string;
  email?: string;
  verified?: boolean;
}

/** How a Discord access token of the stand-in was issued. */
export interface DiscordTokenOptions {
  /** The application the token was issued to; default `discordClientId` (the app tests configure). */
  applicationId?: string;
  /** Scopes the person granted; default `identify`, plus `email` when the user has an email. */
  scopes?: string[];
  /** When the token expires; default in 7 days (Discord's usual lifetime). */
  expires?: Date;
}

export interface SocialUserInfoServer {
  /** Base URL for both the X (`/2/users/me`) and Discord (`/oauth2/@me`, `/users/@me`) endpoints. */
  baseUrl: string;
  /** The application id Discord tokens are issued to by default: configure it as DISCORD_CLIENT_ID. */
  readonly discordClientId: string;
  /** Makes `accessToken` a live X token of `user` (X does not say for which app). */
  addXUser(accessToken: string, user: XTestUser): void;
  /** Makes `accessToken` a live Discord token of `user`, issued to `options.applicationId`. */
  addDiscordUser(accessToken: string, user: DiscordTestUser, options?: DiscordTokenOptions): void;
  /** Makes a token stop working (the provider revoked it). */
  revoke(accessToken: string): void;
  readonly requests: number;
  /** How many requests asked for this path (without query). */
  requestsTo(path: string): number;
  close(): Promise<void>;
}

interface DiscordGrant {
  user: DiscordTestUser;
  applicationId: string;
  scopes: string[];
  expires: Date;
}

const DISCORD_CLIENT_ID = '1160000000000000001';
const DISCORD_UNAUTHORIZED = { message: '401: Unauthorized', code: 0 };

/**
 * A local stand-in for the X and Discord APIs, answering for the access tokens registered with
 * it (401 for any other) the way the providers do: X's `GET /2/users/me`; Discord's
 * `GET /oauth2/@me` (the token's application, scopes, expiry, and its user with the identify
 * scope, without email) and `GET /users/@me` (email and `verified` only with the email scope).
 */
export async function startSocialUserInfoServer(): Promise<SocialUserInfoServer> {
  const x = new Map<string, XTestUser>();
  const discord = new Map<string, DiscordGrant>();
  const byPath = new Map<string, number>();
  let requests = 0;
  const server = await startLocalServer((req, res) => {
    requests++;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const path = (req.url ?? '').split('?')[0] ?? '';
    byPath.set(path, (byPath.get(path) ?? 0) + 1);
    if (req.method === 'GET' && path === '/2/users/me') {
      const user = x.get(token);
      return user ? sendJson(res, 200, { data: { username: 'x_user', ...user } }) : sendJson(res, 401, { title: 'Unauthorized', status: 401 });
    }
    const grant = discord.get(token);
    const live = grant && grant.expires.getTime() > Date.now() ? grant : undefined;
    if (req.method === 'GET' && path === '/oauth2/@me') {
      if (!live) return sendJson(res, 401, DISCORD_UNAUTHORIZED);
      const { id, username = 'discord_user' } = live.user;
      return sendJson(res, 200, {
        application: { id: live.applicationId, name: `app ${live.applicationId}`, icon: null, description: '', bot_public: false, bot_require_code_grant: false },
        scopes: live.scopes,
        expires: live.expires.toISOString(),
        ...(live.scopes.includes('identify') ? { user: { id, username, avatar: null, discriminator: '0', global_name: username, public_flags: 0 } } : {}),
      });
    }
    if (req.method === 'GET' && path === '/users/@me') {
      if (!live) return sendJson(res, 401, DISCORD_UNAUTHORIZED);
      if (!live.scopes.includes('identify')) return sendJson(res, 403, { message: 'Missing Access', code: 50001 });
      const { email, verified, ...user } = live.user;
      return sendJson(res, 200, { username: 'discord_user', ...user, ...(live.scopes.includes('email') ? { email: email ?? null, verified: verified ?? false } : {}) });
    }
    sendJson(res, 404, { message: 'not found' });
  });
  return {
    baseUrl: server.baseUrl,
    discordClientId: DISCORD_CLIENT_ID,
    addXUser: (token, user) => void x.set(token, user),
    addDiscordUser: (token, user, options = {}) =>
      void discord.set(token, {
        user,
        applicationId: options.applicationId ?? DISCORD_CLIENT_ID,
        scopes: options.scopes ?? (user.email ? ['identify', 'email'] : ['identify']),
        expires: options.expires ?? new Date(Date.now() + 7 * 86_400_000),
      }),
    revoke: (token) => {
      x.delete(token);
      discord.delete(token);
    },
    get requests() {
      return requests;
    },
    requestsTo: (path) => byPath.get(path) ?? 0,
    close: server.close,
  };
}
