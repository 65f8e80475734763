import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { IdTokenError } from './id-token-error.js';
import type { TelegramProviderConfig, VerifiedIdentity } from './types.js';

/** The Login Widget's fields, as Telegram hands them to the page. */
export type TelegramLoginData = Record<string, string | number> & { id: number | string; auth_date: number | string; hash: string };

/**
 * Telegram's rule: data-check-string = every received field except `hash`, as `key=value`,
 * sorted by key, joined with "\n"; the hash is HMAC-SHA256 of it keyed with SHA-256(bot token).
 */
export function telegramDataCheckString(data: Record<string, unknown>): string {
  return Object.keys(data)
    .filter((k) => k !== 'hash')
    .sort()
    .map((k) => `${k}=${String(data[k])}`)
    .join('\n');
}

export function telegramHash(botToken: string, data: Record<string, unknown>): string {
  const key = createHash('sha256').update(botToken, 'utf8').digest();
  return createHmac('sha256', key).update(telegramDataCheckString(data), 'utf8').digest('hex');
}

/** Verifies the base64url JSON of a login widget answer (the part after `telegram:`). */
export function createTelegramVerifier(config: TelegramProviderConfig) {
  const maxAge = config.maxAgeSeconds ?? 86_400;
  return (encoded: string): VerifiedIdentity => {
    let data: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      data = parsed as Record<string, unknown>;
    } catch {
      throw new IdTokenError('malformed', 'Telegram login data is not base64url JSON');
    }
    const { hash, id, auth_date: authDate } = data;
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) throw new IdTokenError('malformed', 'Telegram hash missing');
    if (!Object.values(data).every((v) => typeof v === 'string' || typeof v === 'number')) {
      throw new IdTokenError('malformed', 'Telegram login data holds nested values');
    }
    const expected = Buffer.from(telegramHash(config.botToken, data), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) {
      throw new IdTokenError('invalid_signature_or_claims', 'Telegram hash does not match');
    }
    const userId = String(id ?? '');
    const issued = Number(authDate);
    if (!/^[0-9]{1,20}$/.test(userId) || !Number.isInteger(issued)) throw new IdTokenError('malformed', 'Telegram id or auth_date missing');
    const now = Math.floor(Date.now() / 1000);
    if (issued > now + 60) throw new IdTokenError('invalid_signature_or_claims', 'Telegram auth_date is in the future');
    if (now - issued > maxAge) throw new IdTokenError('expired', 'Telegram login data too old');
    return { authType: 'TELEGRAM', subject: userId, email: null, expiresAt: new Date((issued + maxAge) * 1000), tokenId: `TELEGRAM|${userId}|${hash}` };
  };
}
