import { randomBytes } from 'node:crypto';
import { toHex } from '@svc/crypto';
import { ShareCipher } from '@svc/share-cipher';
import { startHarness, type Harness } from './support/harness.js';
import { post } from './support/wallet-client.js';
import { createWalletUser } from './support/wallet-user.js';
import { noncesAad } from '../src/modules/sign-ed25519/service.js';

interface Column {
  table_name: string;
  column_name: string;
  data_type: string;
}

/**
 * The whole database as text: every text, bytea and json column of every table (pg_dump is not
 * installed, so the dump is done with queries). bytea is rendered as hex, base64 and latin1 so
 * that a raw secret is found whichever way it was written.
 */
async function dumpDatabase(h: Harness): Promise<string> {
  const columns = await h.t.db.$queryRaw<Column[]>`
    SELECT table_name::text AS table_name, column_name::text AS column_name, data_type::text AS data_type FROM information_schema.columns
    WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'character', 'bytea', 'jsonb', 'json')`;
  expect(columns.length).toBeGreaterThan(20);
  const parts: string[] = [];
  for (const c of columns) {
    const rows = await h.t.db.$queryRawUnsafe<{ v: unknown }[]>(`SELECT "${c.column_name}"${c.data_type.startsWith("json") ? "::text" : c.data_type === "character" ? "::text" : ""} AS v FROM "${c.table_name}"`);
    for (const { v } of rows) {
      if (v === null) continue;
      if (v instanceof Uint8Array) parts.push(Buffer.from(v).toString('hex'), Buffer.from(v).toString('base64'), Buffer.from(v).toString('latin1'));
      else parts.push(typeof v === 'string' ? v : JSON.stringify(v));
    }
  }
  return parts.join('\n');
}

function expectAbsent(dump: string, secret: Uint8Array, what: string) {
  const forms = [toHex(secret), Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url'), Buffer.from(secret).toString('latin1')];
  for (const form of forms) {
    if (dump.includes(form)) throw new Error(`${what} found in plaintext in the database dump`);
  }
}

describe('secrets at rest', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('a database dump holds no share, seed part or nonce in plaintext', async () => {
    const user = await createWalletUser(h);
    // A session left after round 1 keeps its (sealed) nonces in the row: the case to check.
    const r1 = await post<{ session_id: string }>(h.baseUrl, '/tss/v2/sign_ed25519/round1', { msg: toHex(randomBytes(32)) }, user.headers);
    const sessionId = r1.body.data!.session_id;
    const row = await h.t.db.tssSession.findUniqueOrThrow({ where: { id: sessionId } });
    const sealedNonces = (row.state as { nonces: string }).nonces;
    expect(sealedNonces).toMatch(/^v1\.k1\./);
    // The test holds the key, so it can recover the real nonces and look for them.
    const cipher = h.config.shareCipher() as ShareCipher;
    const nonces = cipher.openString(sealedNonces, noncesAad(sessionId));

    const dump = await dumpDatabase(h);
    expect(dump).toContain(toHex(user.key.keygen.publicKey));
    expectAbsent(dump, user.key.keygen.keygen2.signingShare, 'server signing share (keygen_2)');
    expectAbsent(dump, user.key.keygen.keygen1.signingShare, 'client signing share (keygen_1)');
    expectAbsent(dump, user.key.serverSeedPart, 'server seed part');
    expectAbsent(dump, user.key.userSeedPart, 'user seed part');
    expectAbsent(dump, user.key.keygen.seed, 'seed');
    expectAbsent(dump, nonces.slice(0, 32), 'hiding nonce');
    expectAbsent(dump, nonces.slice(32, 64), 'binding nonce');
    expect(dump).not.toContain(user.idToken);
    expect(dump).not.toContain(user.token);
    expect(dump).not.toContain(h.apiKey);
  });

  it('a sealed share moved to another wallet row does not open (AAD binds the row)', async () => {
    const [a, b] = await Promise.all([createWalletUser(h), createWalletUser(h)]);
    const source = await h.t.db.wallet.findUniqueOrThrow({ where: { id: a.walletId } });
    await h.t.db.wallet.update({ where: { id: b.walletId }, data: { serverShareCiphertext: source.serverShareCiphertext } });
    const res = await post(h.baseUrl, '/tss/v2/sign_ed25519/round1', { msg: 'aa' }, b.headers);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, code: 'UNKNOWN_ERROR', msg: 'Something went wrong' });
  });
});
