import { startTestDatabase, type TestDatabase } from '@svc/db/testing';
import { AppError } from '@svc/envelope';
import { emailCodes, EMAIL_CODE_MAX_ATTEMPTS } from '../src/email-codes.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(() => t.stop());

const SECRET = 'email-code-test-secret-0123456789abcdef';

async function codeError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'none';
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
}

describe('email codes', () => {
  it('stores only a MAC of the code and accepts the code once', async () => {
    const codes = emailCodes(t.db, { secret: SECRET, ttlMinutes: 5 });
    const { code, expiresAt } = await codes.issue('DASHBOARD_SIGNUP', 'a@example.com');
    expect(code).toMatch(/^\d{6}$/);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(4.9 * 60_000);
    const row = await t.db.emailVerification.findFirstOrThrow({ where: { email: 'a@example.com' } });
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.codeHash).not.toContain(code);

    const id = await codes.check('DASHBOARD_SIGNUP', 'a@example.com', code);
    await codes.consume(t.db, id);
    expect(await codeError(codes.check('DASHBOARD_SIGNUP', 'a@example.com', code))).toBe('INVALID_CODE');
    // The code is bound to its purpose and address.
    const other = await codes.issue('PASSWORD_RESET', 'a@example.com');
    expect(await codeError(codes.check('DASHBOARD_SIGNUP', 'a@example.com', other.code))).toBe('INVALID_CODE');
    expect(await codeError(codes.check('PASSWORD_RESET', 'b@example.com', other.code))).toBe('INVALID_CODE');
  });

  it('is consumed by exactly one of 20 concurrent requests', async () => {
    const codes = emailCodes(t.db, { secret: SECRET, ttlMinutes: 5, maxAttempts: 100 });
    const { code } = await codes.issue('PASSWORD_RESET', 'race@example.com');
    const results = await Promise.all(
      Array.from({ length: 20 }, async () => {
        try {
          const id = await codes.check('PASSWORD_RESET', 'race@example.com', code);
          await codes.consume(t.db, id);
          return 'ok';
        } catch (error) {
          return (error as AppError).code;
        }
      }),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(new Set(results.filter((r) => r !== 'ok'))).toEqual(new Set(['INVALID_CODE']));
  });

  it('allows at most 5 attempts per code, also when the guesses arrive together', async () => {
    const codes = emailCodes(t.db, { secret: SECRET, ttlMinutes: 5 });
    const { code } = await codes.issue('DASHBOARD_SIGNUP', 'guess@example.com');
    const wrong = code === '000000' ? '000001' : '000000';
    const results = await Promise.all(Array.from({ length: 30 }, () => codeError(codes.check('DASHBOARD_SIGNUP', 'guess@example.com', wrong))));
    expect(results.filter((r) => r === 'INVALID_CODE')).toHaveLength(EMAIL_CODE_MAX_ATTEMPTS);
    expect(results.filter((r) => r === 'TOO_MANY_ATTEMPTS')).toHaveLength(30 - EMAIL_CODE_MAX_ATTEMPTS);
    // Even the right code is refused now; a new code starts over.
    expect(await codeError(codes.check('DASHBOARD_SIGNUP', 'guess@example.com', code))).toBe('TOO_MANY_ATTEMPTS');
    const fresh = await codes.issue('DASHBOARD_SIGNUP', 'guess@example.com');
    expect(await codeError(codes.check('DASHBOARD_SIGNUP', 'guess@example.com', fresh.code))).toBe('none');
  });

  it('expires after the configured minutes, and a newer code supersedes an older one', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const codes = emailCodes(t.db, { secret: SECRET, ttlMinutes: 5, now: () => now });
    const first = await codes.issue('DASHBOARD_SIGNUP', 'exp@example.com');
    now = new Date(now.getTime() + 5 * 60_000);
    expect(await codeError(codes.check('DASHBOARD_SIGNUP', 'exp@example.com', first.code))).toBe('CODE_EXPIRED');
    const second = await codes.issue('DASHBOARD_SIGNUP', 'exp@example.com');
    now = new Date(now.getTime() + 1000);
    const third = await codes.issue('DASHBOARD_SIGNUP', 'exp@example.com');
    if (second.code !== third.code) {
      expect(await codeError(codes.check('DASHBOARD_SIGNUP', 'exp@example.com', second.code))).toBe('INVALID_CODE');
    }
    expect(await codeError(codes.check('DASHBOARD_SIGNUP', 'exp@example.com', third.code))).toBe('none');
  });
});
