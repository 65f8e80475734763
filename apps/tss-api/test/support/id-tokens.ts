import { randomUUID } from 'node:crypto';
import { telegramLoginToken } from '@svc/auth/testing';
import { TELEGRAM_BOT_TOKEN, type Harness } from './harness.js';
import { post } from './wallet-client.js';

export type ProviderKind = 'EMAIL' | 'GOOGLE' | 'APPLE' | 'X' | 'DISCORD' | 'TELEGRAM';
export const PROVIDER_KINDS: ProviderKind[] = ['EMAIL', 'GOOGLE', 'APPLE', 'X', 'DISCORD', 'TELEGRAM'];

let telegramId = 500_000 + Math.floor(Math.random() * 100_000);

/** Logs a fresh person in at a provider, the way a real client would, and returns the ID token. */
export async function freshIdToken(h: Harness, kind: ProviderKind): Promise<{ token: string; email: string | null }> {
  const tag = randomUUID().slice(0, 8);
  const email = `${kind.toLowerCase()}-${tag}@example.com`;
  switch (kind) {
    case 'EMAIL': {
      const sent = await post(h.baseUrl, '/tss/v1/user/email/request_code', { email });
      if (sent.status !== 200) throw new Error(`request_code ${sent.status} ${JSON.stringify(sent.body)}`);
      const mail = await h.mailer.devServer!.waitFor(email);
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
      const verified = await post<{ id_token: string }>(h.baseUrl, '/tss/v1/user/email/verify_code', { email, code });
      if (!verified.body.data) throw new Error(`verify_code ${verified.status} ${JSON.stringify(verified.body)}`);
      return { token: verified.body.data.id_token, email };
    }
    case 'GOOGLE':
      return { token: await h.google.issue({ sub: `g-${tag}`, email }), email };
    case 'APPLE':
      return { token: await h.apple.issue({ sub: `a-${tag}`, email, email_verified: 'true' }), email };
    case 'X':
      h.social.addXUser(`xtok-${tag}`, { id: `${Date.now()}${Math.floor(Math.random() * 1000)}`, confirmed_email: email });
      return { token: `x:xtok-${tag}`, email };
    case 'DISCORD':
      h.social.addDiscordUser(`dtok-${tag}`, { id: `${Date.now()}${Math.floor(Math.random() * 1000)}`, email, verified: true });
      return { token: `discord:dtok-${tag}`, email };
    case 'TELEGRAM':
      telegramId += 1;
      return { token: telegramLoginToken(TELEGRAM_BOT_TOKEN, { id: telegramId, username: `tg${tag}` }), email: null };
  }
}
