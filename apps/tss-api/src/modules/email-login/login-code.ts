import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto';

/** Six decimal digits: typed by a person from an email. */
export function generateLoginCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * Codes are stored as HMAC-SHA256(key, email || code) with a key derived from the server
 * secret: a plain hash of a 6-digit code would fall to a 10^6 brute force after a database
 * leak; keyed, the leak alone gives nothing.
 */
export class LoginCodeHasher {
  private readonly key: Buffer;
  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'svc-tss-wallet', 'email-login-code', 32));
  }

  hash(email: string, code: string): string {
    return createHmac('sha256', this.key).update(`${email}\n${code}`, 'utf8').digest('hex');
  }

  /** Constant-time comparison of equal-length digests. */
  matches(email: string, code: string, storedHash: string): boolean {
    const expected = Buffer.from(this.hash(email, code), 'hex');
    const stored = Buffer.from(storedHash, 'hex');
    return stored.length === expected.length && timingSafeEqual(expected, stored);
  }
}
