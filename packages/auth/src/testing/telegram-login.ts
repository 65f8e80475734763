import { telegramHash } from '../providers/telegram-verifier.js';

export interface TelegramTestUser {
  id: number;
  first_name?: string;
  username?: string;
}

/**
 * What Telegram's Login Widget hands a page after login, signed with `botToken` as Telegram
 * does, and packed as the `telegram:<base64url JSON>` ID token the service accepts.
 */
export function telegramLoginToken(botToken: string, user: TelegramTestUser, authDate = Math.floor(Date.now() / 1000)): string {
  const data: Record<string, string | number> = { first_name: 'Test', ...user, auth_date: authDate };
  const signed = { ...data, hash: telegramHash(botToken, data) };
  return `telegram:${Buffer.from(JSON.stringify(signed)).toString('base64url')}`;
}
