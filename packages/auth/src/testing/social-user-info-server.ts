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

export interface SocialUserInfoServer {
  /** Base URL for both the X (`/2/users/me`) and Discord (`/users/@me`) endpoints. */
  baseUrl: string;
  /** Makes `accessToken` a live X token of `user`. */
  addXUser(accessToken: string, user: XTestUser): void;
  addDiscordUser(accessToken: string, user: DiscordTestUser): void;
  /** Makes a token stop working (the provider revoked it). */
  revoke(accessToken: string): void;
  readonly requests: number;
  close(): Promise<void>;
}

/**
 * A local stand-in for the X and Discord APIs: answers their user-info endpoints for the
 * access tokens registered with it, 401 for any other, exactly like the providers do.
 */
export async function startSocialUserInfoServer(): Promise<SocialUserInfoServer> {
  const x = new Map<string, XTestUser>();
  const discord = new Map<string, DiscordTestUser>();
  let requests = 0;
  const server = await startLocalServer((req, res) => {
    requests++;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/2/users/me') {
      const user = x.get(token);
      return user ? sendJson(res, 200, { data: { username: 'x_user', ...user } }) : sendJson(res, 401, { title: 'Unauthorized', status: 401 });
    }
    if (req.method === 'GET' && path === '/users/@me') {
      const user = discord.get(token);
      return user ? sendJson(res, 200, { username: 'discord_user', ...user }) : sendJson(res, 401, { message: '401: Unauthorized', code: 0 });
    }
    sendJson(res, 404, { message: 'not found' });
  });
  return {
    baseUrl: server.baseUrl,
    addXUser: (token, user) => void x.set(token, user),
    addDiscordUser: (token, user) => void discord.set(token, user),
    revoke: (token) => {
      x.delete(token);
      discord.delete(token);
    },
    get requests() {
      return requests;
    },
    close: server.close,
  };
}
