import { randomBytes, randomUUID } from 'node:crypto';
import { Prisma, isUniqueViolation, pingDb, rateLimitStore, uniqueViolationFields, type PrismaClient } from '../src/index.js';
import { startTestDatabase, type TestDatabase } from '../src/testing.js';

let t: TestDatabase;
let db: PrismaClient;
beforeAll(async () => {
  t = await startTestDatabase();
  db = t.db;
});
afterAll(() => t.stop());

const uniqueEmail = (who: string) => `${who}-${randomUUID()}@example.test`;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Expects a unique violation (P2002) on a constraint covering `fields`. */
async function expectP2002(promise: Promise<unknown>, fields: string[]): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
  expect((error as Prisma.PrismaClientKnownRequestError).code).toBe('P2002');
  expect(uniqueViolationFields(error)).toEqual(fields);
  expect(isUniqueViolation(error, fields[0])).toBe(true);
}

async function makeWallet(curve: 'secp256k1' | 'ed25519' = 'ed25519') {
  const user = await db.user.create({
    data: { email: uniqueEmail('user'), authType: 'GOOGLE', providerSubject: randomUUID() },
  });
  const wallet = await db.wallet.create({
    data: {
      userId: user.id,
      curve,
      publicKey: hex(32),
      serverShareCiphertext: randomBytes(60),
      serverShareKeyId: 'k1',
      seedPartCiphertext: randomBytes(60),
      seedPartKeyId: 'k1',
    },
  });
  return { user, wallet };
}

test('pingDb answers true for a live database', async () => {
  expect(await pingDb(db)).toBe(true);
});

test('customer with logo, dashboard users and API keys; deleting the customer cascades', async () => {
  const logo = randomBytes(100);
  const customer = await db.customer.create({
    data: {
      label: 'Acme',
      email: uniqueEmail('acme'),
      logo,
      logoMimeType: 'image/png',
      dashboardUsers: { create: { email: uniqueEmail('owner'), passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA' } },
      apiKeys: { create: { keyPrefix: 'svc_abcdefgh', keyHash: hex(32), label: 'production' } },
    },
  });
  expect(customer.status).toBe('ACTIVE');

  const read = await db.customer.findUniqueOrThrow({ where: { id: customer.id }, include: { dashboardUsers: true, apiKeys: true } });
  expect(Buffer.from(read.logo!)).toEqual(logo);
  expect(read.dashboardUsers).toHaveLength(1);
  expect(read.dashboardUsers[0]?.emailVerifiedAt).toBeNull();
  expect(read.apiKeys[0]).toMatchObject({ keyPrefix: 'svc_abcdefgh', label: 'production', revokedAt: null, lastUsedAt: null });

  const key = read.apiKeys[0]!;
  await expectP2002(db.apiKey.create({ data: { customerId: customer.id, keyPrefix: 'x', keyHash: key.keyHash, label: 'dup' } }), ['key_hash']);
  await expectP2002(
    db.customerDashboardUser.create({ data: { customerId: customer.id, email: read.dashboardUsers[0]!.email, passwordHash: 'x' } }), ['email'],
  );

  await db.customer.delete({ where: { id: customer.id } });
  expect(await db.customerDashboardUser.count({ where: { customerId: customer.id } })).toBe(0);
  expect(await db.apiKey.count({ where: { customerId: customer.id } })).toBe(0);
});

test('admin users have unique emails', async () => {
  const email = uniqueEmail('admin');
  const admin = await db.adminUser.create({ data: { email, passwordHash: 'h' } });
  expect(admin.createdAt).toBeInstanceOf(Date);
  await expectP2002(db.adminUser.create({ data: { email, passwordHash: 'h' } }), ['email']);
});

test('users are unique per (auth type, provider subject); one wallet per curve; public keys unique', async () => {
  const { user, wallet } = await makeWallet('ed25519');
  await expectP2002(db.user.create({ data: { email: uniqueEmail('x'), authType: 'GOOGLE', providerSubject: user.providerSubject } }), ['auth_type', 'provider_subject']);
  // The same subject at another provider is another identity.
  await db.user.create({ data: { email: user.email, authType: 'APPLE', providerSubject: user.providerSubject } });

  const secp = await db.wallet.create({
    data: {
      userId: user.id,
      curve: 'secp256k1',
      publicKey: hex(33),
      serverShareCiphertext: Buffer.from([1, 2, 3]),
      serverShareKeyId: 'k2',
      seedPartCiphertext: Buffer.from([4, 5, 6]),
      seedPartKeyId: 'k2',
    },
  });
  const wallets = await db.wallet.findMany({ where: { userId: user.id }, orderBy: { curve: 'asc' } });
  expect(wallets.map((w) => w.curve).sort()).toEqual(['ed25519', 'secp256k1']);
  expect(Buffer.from(wallets.find((w) => w.id === secp.id)!.seedPartCiphertext)).toEqual(Buffer.from([4, 5, 6]));

  await expectP2002(
    db.wallet.create({
      data: { ...secp, id: undefined, publicKey: hex(33), createdAt: undefined, updatedAt: undefined },
    }), ['user_id', 'curve'],
  );
  const other = await makeWallet();
  await expectP2002(db.wallet.update({ where: { id: other.wallet.id }, data: { publicKey: wallet.publicKey } }), ['public_key']);
});

test('TSS session with JSON state, stages (unique per session) and its customer / API key', async () => {
  const { user, wallet } = await makeWallet();
  const customer = await db.customer.create({ data: { label: 'c', email: uniqueEmail('c') } });
  const apiKey = await db.apiKey.create({ data: { customerId: customer.id, keyPrefix: 'svc_', keyHash: hex(32), label: 'k' } });
  const state = { version: 1, round: 1, commitment0: hex(32), sealed_nonces: { key_id: 'k1', ciphertext: hex(60) }, list: [1, 2, 3] };
  const session = await db.tssSession.create({
    data: {
      userId: user.id,
      walletId: wallet.id,
      kind: 'SIGN_ED25519',
      state,
      expiresAt: new Date(Date.now() + 60_000),
      customerId: customer.id,
      apiKeyId: apiKey.id,
      stages: { create: { name: 'round1', status: 'COMPLETED', completedAt: new Date() } },
    },
  });
  expect(session.status).toBe('ACTIVE');
  expect(session.stateVersion).toBe(0);

  const read = await db.tssSession.findUniqueOrThrow({
    where: { id: session.id },
    include: { stages: true, wallet: true, user: true, customer: true, apiKey: true },
  });
  expect(read.state).toEqual(state);
  expect(read.stages.map((s) => s.name)).toEqual(['round1']);
  expect(read.wallet?.id).toBe(wallet.id);
  expect(read.apiKey?.id).toBe(apiKey.id);

  await expectP2002(db.tssStage.create({ data: { sessionId: session.id, name: 'round1' } }), ['session_id', 'name']);
  await db.tssStage.create({ data: { sessionId: session.id, name: 'round2' } });

  // Compare-and-swap on stateVersion: only the request that read version 0 may advance it.
  const advance = () =>
    db.tssSession.updateMany({
      where: { id: session.id, status: 'ACTIVE', stateVersion: 0 },
      data: { stateVersion: { increment: 1 }, state: { ...state, round: 2 } },
    });
  expect((await advance()).count).toBe(1);
  expect((await advance()).count).toBe(0);

  // Deleting the API key keeps the session, without the link.
  await db.apiKey.delete({ where: { id: apiKey.id } });
  expect((await db.tssSession.findUniqueOrThrow({ where: { id: session.id } })).apiKeyId).toBeNull();
});

test('key share nodes and the per-wallet node status', async () => {
  const { wallet } = await makeWallet();
  const name = `node-${randomUUID()}`;
  const node = await db.keyShareNode.create({ data: { name, endpoint: 'http://127.0.0.1:4201' } });
  expect(node.status).toBe('ACTIVE');
  await expectP2002(db.keyShareNode.create({ data: { name, endpoint: 'http://127.0.0.1:4202' } }), ['name']);

  await db.walletKeyShareNodeStatus.create({ data: { walletId: wallet.id, nodeId: node.id, status: 'ACTIVE' } });
  await expectP2002(db.walletKeyShareNodeStatus.create({ data: { walletId: wallet.id, nodeId: node.id, status: 'ACTIVE' } }), ['wallet_id', 'node_id']);
  const lost = await db.walletKeyShareNodeStatus.update({
    where: { walletId_nodeId: { walletId: wallet.id, nodeId: node.id } },
    data: { status: 'UNRECOVERABLE_DATA_LOSS' },
    include: { node: true },
  });
  expect(lost.status).toBe('UNRECOVERABLE_DATA_LOSS');
  expect(lost.node.name).toBe(name);

  await db.keyShareNode.delete({ where: { id: node.id } });
  expect(await db.walletKeyShareNodeStatus.count({ where: { walletId: wallet.id } })).toBe(0);
});

test('email verification codes are consumed once', async () => {
  const email = uniqueEmail('verify');
  const code = await db.emailVerification.create({
    data: { purpose: 'DASHBOARD_SIGNUP', email, codeHash: hex(32), expiresAt: new Date(Date.now() + 5 * 60_000) },
  });
  expect(code.attempts).toBe(0);
  await db.emailVerification.update({ where: { id: code.id }, data: { attempts: { increment: 1 } } });
  const consume = () =>
    db.emailVerification.updateMany({
      where: { id: code.id, consumedAt: null, expiresAt: { gt: new Date() } },
      data: { consumedAt: new Date() },
    });
  expect((await consume()).count).toBe(1);
  expect((await consume()).count).toBe(0);
  const latest = await db.emailVerification.findFirstOrThrow({ where: { email, purpose: 'DASHBOARD_SIGNUP' }, orderBy: { createdAt: 'desc' } });
  expect(latest.attempts).toBe(1);
});

test('revoked tokens and witnessed ID tokens are unique', async () => {
  const jti = randomUUID();
  await db.revokedToken.create({ data: { jti, expiresAt: new Date(Date.now() + 3_600_000) } });
  await expectP2002(db.revokedToken.create({ data: { jti, expiresAt: new Date() } }), ['jti']);
  expect(await db.revokedToken.findUnique({ where: { jti } })).not.toBeNull();

  const { user } = await makeWallet();
  const tokenHash = hex(32);
  await db.witnessedIdToken.create({ data: { tokenHash, userId: user.id, authType: 'GOOGLE', purpose: 'keygen', expiresAt: new Date() } });
  await expectP2002(db.witnessedIdToken.create({ data: { tokenHash, authType: 'GOOGLE', purpose: 'reshare', expiresAt: new Date() } }), ['token_hash']);
  expect((await db.user.findUniqueOrThrow({ where: { id: user.id }, include: { witnessedIdTokens: true } })).witnessedIdTokens).toHaveLength(1);
});

test('triple and presignature pools, and the audit log', async () => {
  const { user, wallet } = await makeWallet('secp256k1');
  const session = await db.tssSession.create({
    data: { userId: user.id, walletId: wallet.id, kind: 'SIGN_ECDSA', expiresAt: new Date(Date.now() + 60_000) },
  });
  const material = randomBytes(200);
  const triple = await db.triplePoolItem.create({ data: { walletId: wallet.id, material, materialKeyId: 'k1' } });
  const presig = await db.presignaturePoolItem.create({ data: { walletId: wallet.id, material, materialKeyId: 'k1' } });
  expect(triple.status).toBe('UNUSED');

  await db.presignaturePoolItem.update({
    where: { id: presig.id },
    data: { status: 'CONSUMED', consumedAt: new Date(), consumedBySessionId: session.id },
  });
  await db.triplePoolItem.update({ where: { id: triple.id }, data: { status: 'RESERVED', reservedAt: new Date() } });
  const withPools = await db.tssSession.findUniqueOrThrow({ where: { id: session.id }, include: { consumedPresignatures: true } });
  expect(withPools.consumedPresignatures.map((p) => p.id)).toEqual([presig.id]);
  expect(Buffer.from(withPools.consumedPresignatures[0]!.material)).toEqual(material);

  await db.signatureAuditLog.create({ data: { walletId: wallet.id, sessionId: session.id, curve: 'secp256k1', messageHash: hex(32) } });
  const audit = await db.signatureAuditLog.findMany({ where: { walletId: wallet.id }, include: { session: true } });
  expect(audit).toHaveLength(1);
  expect(audit[0]?.session?.kind).toBe('SIGN_ECDSA');

  // Removing the user removes everything that belongs to the wallet.
  await db.user.delete({ where: { id: user.id } });
  expect(await db.triplePoolItem.count({ where: { walletId: wallet.id } })).toBe(0);
  expect(await db.signatureAuditLog.count({ where: { walletId: wallet.id } })).toBe(0);
});

test('TSS activation settings are a single row', async () => {
  expect(await db.tssActivationSetting.findUnique({ where: { id: 1 } })).toBeNull();
  const upsert = (signingEnabled: boolean) =>
    db.tssActivationSetting.upsert({ where: { id: 1 }, create: { signingEnabled }, update: { signingEnabled } });
  expect((await upsert(false)).signingEnabled).toBe(false);
  expect((await upsert(true)).signingEnabled).toBe(true);
  expect(await db.tssActivationSetting.count()).toBe(1);
});

test('interactive transactions roll back on error', async () => {
  const email = uniqueEmail('tx');
  await expect(
    db.$transaction(async (tx) => {
      await tx.adminUser.create({ data: { email, passwordHash: 'h' } });
      throw new Error('abort');
    }),
  ).rejects.toThrow('abort');
  expect(await db.adminUser.findUnique({ where: { email } })).toBeNull();
});

describe('rateLimitStore (fixed windows in PostgreSQL)', () => {
  it('counts every concurrent increment exactly once, across stores of the same limit (replicas)', async () => {
    const replicas = [rateLimitStore(db, 'loginLimit'), rateLimitStore(db, 'loginLimit')];
    for (const r of replicas) r.init({ windowMs: 60_000 });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => replicas[i % 2]!.increment('1.2.3.4|a@b.c')));
    expect(results.map((r) => r.totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const resets = new Set(results.map((r) => r.resetTime!.getTime()));
    expect(resets.size).toBe(1);
    expect([...resets][0]).toBeGreaterThan(Date.now() + 55_000);
    expect(await replicas[1]!.get('1.2.3.4|a@b.c')).toMatchObject({ totalHits: 40 });
    // Another limit with the same key counts apart.
    const other = rateLimitStore(db, 'mailLimit');
    other.init({ windowMs: 60_000 });
    expect((await other.increment('1.2.3.4|a@b.c')).totalHits).toBe(1);
  });

  it('a window that has passed starts again at 1; decrement and resetKey', async () => {
    const store = rateLimitStore(db, 'shortLimit');
    // Long enough that a loaded machine does not end it between the first calls.
    store.init({ windowMs: 1500 });
    expect((await store.increment('k')).totalHits).toBe(1);
    expect((await store.increment('k')).totalHits).toBe(2);
    await store.decrement('k');
    expect(await store.get('k')).toMatchObject({ totalHits: 1 });
    await new Promise((r) => setTimeout(r, 1600));
    expect(await store.get('k')).toBeUndefined();
    expect((await store.increment('k')).totalHits).toBe(1);
    await store.resetKey('k');
    expect(await db.rateLimitCounter.count({ where: { key: 'shortLimit:k' } })).toBe(0);
  });
});
