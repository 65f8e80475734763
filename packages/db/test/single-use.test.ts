import { randomBytes, randomUUID } from 'node:crypto';
import type { PrismaClient } from '../src/index.js';
import { startTestDatabase, type TestDatabase } from '../src/testing.js';

// Security invariant 1 (docs/architecture.md): a triple / presignature / nonce is consumed exactly once, atomically
// in the database. The repos do it with a conditional update and act only on count === 1.

let t: TestDatabase;
let db: PrismaClient;
beforeAll(async () => {
  t = await startTestDatabase();
  db = t.db;
});
afterAll(() => t.stop());

async function walletWithPresignatures(count: number) {
  const user = await db.user.create({ data: { email: 'pool@example.test', authType: 'EMAIL', providerSubject: randomUUID() } });
  const wallet = await db.wallet.create({
    data: {
      userId: user.id,
      curve: 'secp256k1',
      publicKey: randomBytes(33).toString('hex'),
      serverShareCiphertext: randomBytes(60),
      serverShareKeyId: 'k1',
      seedPartCiphertext: randomBytes(60),
      seedPartKeyId: 'k1',
    },
  });
  const sessions = await Promise.all(
    Array.from({ length: 50 }, () =>
      db.tssSession.create({ data: { userId: user.id, walletId: wallet.id, kind: 'SIGN_ECDSA', expiresAt: new Date(Date.now() + 60_000) } }),
    ),
  );
  await db.presignaturePoolItem.createMany({
    data: Array.from({ length: count }, () => ({ walletId: wallet.id, material: randomBytes(64), materialKeyId: 'k1' })),
  });
  return { wallet, sessions };
}

test('50 concurrent conditional updates consume one pool row exactly once', async () => {
  const { wallet, sessions } = await walletWithPresignatures(1);
  const item = await db.presignaturePoolItem.findFirstOrThrow({ where: { walletId: wallet.id, status: 'UNUSED' } });

  const results = await Promise.all(
    sessions.map((session) =>
      db.presignaturePoolItem.updateMany({
        where: { id: item.id, status: 'UNUSED' },
        data: { status: 'CONSUMED', consumedAt: new Date(), consumedBySessionId: session.id },
      }),
    ),
  );

  expect(results.filter((r) => r.count === 1)).toHaveLength(1);
  expect(results.filter((r) => r.count === 0)).toHaveLength(49);
  const consumed = await db.presignaturePoolItem.findUniqueOrThrow({ where: { id: item.id } });
  expect(consumed.status).toBe('CONSUMED');
  expect(sessions.map((s) => s.id)).toContain(consumed.consumedBySessionId);
});

test('"take the oldest unused" under contention hands each row to one taker only', async () => {
  const { wallet, sessions } = await walletWithPresignatures(10);

  // Pick a candidate, claim it conditionally, retry on losing the race: 50 takers, 10 rows.
  const take = async (sessionId: string): Promise<string | null> => {
    for (;;) {
      const candidate = await db.presignaturePoolItem.findFirst({
        where: { walletId: wallet.id, status: 'UNUSED' },
        orderBy: { createdAt: 'asc' },
        select: { id: true },
      });
      if (!candidate) return null;
      const { count } = await db.presignaturePoolItem.updateMany({
        where: { id: candidate.id, status: 'UNUSED' },
        data: { status: 'CONSUMED', consumedAt: new Date(), consumedBySessionId: sessionId },
      });
      if (count === 1) return candidate.id;
    }
  };

  const taken = await Promise.all(sessions.map((s) => take(s.id)));
  const ids = taken.filter((id): id is string => id !== null);
  expect(ids).toHaveLength(10);
  expect(new Set(ids).size).toBe(10);
  expect(await db.presignaturePoolItem.count({ where: { walletId: wallet.id, status: 'UNUSED' } })).toBe(0);
});
