import { sssNodeXCoordinate } from '@svc/crypto';
import { listMountedRoutes } from '@svc/http';
import request from 'supertest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { JWT_SECRET, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const post = (path: string, body?: object) => {
  const req = request(h.app).post(`/svc_admin/v1${path}`).set('authorization', `Bearer ${h.adminToken}`);
  return body === undefined ? req : req.send(body);
};

async function makeWallet(i: number) {
  const user = await h.t.db.user.create({ data: { email: `w${i}@example.com`, authType: 'GOOGLE', providerSubject: `sub-${i}` } });
  const wallet = await h.t.db.wallet.create({
    data: {
      userId: user.id,
      curve: 'ed25519',
      publicKey: i.toString(16).padStart(64, '0'),
      serverShareCiphertext: Buffer.from('secret-share'),
      serverShareKeyId: 'k1',
      seedPartCiphertext: Buffer.from('secret-seed'),
      seedPartKeyId: 'k1',
      createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
    },
  });
  return { user, wallet };
}

describe('wallet/get_wallet_list', () => {
  it('lists wallets newest first with owners and node states, never shares, with bounded pages', async () => {
    const created = [];
    for (let i = 1; i <= 3; i++) created.push(await makeWallet(i));
    const node = await h.t.db.keyShareNode.create({ data: { name: 'wallet-node', endpoint: 'http://127.0.0.1:4201' } });
    await h.t.db.walletKeyShareNodeStatus.create({ data: { walletId: created[2]!.wallet.id, nodeId: node.id, status: 'UNRECOVERABLE_DATA_LOSS' } });

    const res = await post('/wallet/get_wallet_list', { limit: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data.pagination).toEqual({ limit: 2, offset: 0, total: 3 });
    expect(res.body.data.wallets[0]).toEqual({
      wallet_id: created[2]!.wallet.id,
      user_id: created[2]!.user.id,
      user_email: 'w3@example.com',
      auth_type: 'GOOGLE',
      curve: 'ed25519',
      public_key: created[2]!.wallet.publicKey,
      key_share_nodes: [{ node_id: node.id, name: 'wallet-node', wallet_status: 'UNRECOVERABLE_DATA_LOSS' }],
      created_at: '2030-01-01T00:00:03.000Z',
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/secret|ciphertext/i);
    expect((await post('/wallet/get_wallet_list', { offset: 2 })).body.data.wallets.map((w: { user_email: string }) => w.user_email)).toEqual(['w1@example.com']);
    expect((await post('/wallet/get_wallet_list')).body.data.pagination.limit).toBe(20);
    for (const body of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { limit: '10' }, { page: 1 }]) {
      expect((await post('/wallet/get_wallet_list', body)).status).toBe(400);
    }
  });
});

describe('tss/get_tss_session_list', () => {
  it('walks every session exactly once by cursor, newest first, without protocol state', async () => {
    const { user, wallet } = await makeWallet(50);
    const same = new Date(Date.UTC(2031, 0, 1));
    const ids: string[] = [];
    // Several sessions share a timestamp: the id breaks the tie.
    for (let i = 0; i < 7; i++) {
      const s = await h.t.db.tssSession.create({
        data: {
          userId: user.id,
          walletId: wallet.id,
          kind: 'SIGN_ED25519',
          state: { nonce: 'sealed-secret-nonce' },
          expiresAt: new Date(Date.UTC(2031, 0, 2)),
          createdAt: i < 4 ? same : new Date(Date.UTC(2031, 0, 1, 0, 0, i)),
        },
      });
      ids.push(s.id);
    }
    await h.t.db.tssStage.create({ data: { sessionId: ids[0]!, name: 'round1', status: 'COMPLETED', completedAt: new Date() } });

    const seen: { session_id: string; created_at: string }[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const res = await post('/tss/get_tss_session_list', cursor ? { limit: 3, cursor } : { limit: 3 });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.sessions);
      cursor = res.body.data.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((s) => s.session_id).sort()).toEqual([...ids].sort());
    const order = [...seen].map((s) => `${s.created_at}|${s.session_id}`);
    expect(order).toEqual([...order].sort().reverse());
    expect(JSON.stringify(seen)).not.toContain('sealed-secret-nonce');
    const first = seen.find((s) => s.session_id === ids[0]) as unknown as { stages: unknown[]; kind: string };
    expect(first.stages).toEqual([{ name: 'round1', status: 'COMPLETED', created_at: expect.any(String), completed_at: expect.any(String) }]);

    const all = await post('/tss/get_tss_session_list');
    expect(all.body.data.next_cursor).toBeNull();
  });

  it.each([
    [{ cursor: 'not-a-cursor' }, 'cursor is invalid'],
    [{ cursor: Buffer.from('{"t":"yesterday","i":"x"}').toString('base64url') }, 'cursor is invalid'],
    [{ cursor: '' }, 'cursor is invalid'],
    // Dates JavaScript round-trips but PostgreSQL cannot hold (these were a 500).
    ...['0000-01-01T00:00:00.000Z', '+010000-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '-100000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z'].map(
      (t) => [{ cursor: Buffer.from(JSON.stringify({ t, i: '7f0c8a52-2b7e-4a53-9d55-2d9a3c1e0f11' })).toString('base64url') }, 'cursor is invalid'] as [{ cursor: string }, string],
    ),
    [{ cursor: 5 }, 'cursor must be a string'],
    [{ limit: 101 }, 'limit must be an integer between 1 and 100'],
    [{ offset: 1 }, 'Unknown field: offset'],
  ])('refuses %j', async (body, msg) => {
    const res = await post('/tss/get_tss_session_list', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });
});

describe('key share nodes', () => {
  it('refuses a name at the Shamir x-coordinate of a registered node (every backup would fail)', async () => {
    const first = await post('/ks_node/create_ks_node', { name: 'node-x-1', endpoint: 'http://127.0.0.1:4211' });
    expect(first.status).toBe(201);
    const x = sssNodeXCoordinate('node-x-1');
    let i = 2;
    while (sssNodeXCoordinate(`node-x-${i}`) !== x) i++;
    const before = await h.t.db.keyShareNode.count();
    const twin = await post('/ks_node/create_ks_node', { name: `node-x-${i}`, endpoint: 'http://127.0.0.1:4212' });
    expect([twin.status, twin.body]).toEqual([400, { success: false, code: 'INVALID_REQUEST', msg: `name gives key share node node-x-1's Shamir x-coordinate (${x}): choose another name` }]);
    expect(await h.t.db.keyShareNode.count()).toBe(before);
  });

  it('creates, lists, updates, deactivates, deletes', async () => {
    const created = await post('/ks_node/create_ks_node', { name: 'node-9', endpoint: 'http://127.0.0.1:4209' });
    expect(created.status).toBe(201);
    const id = created.body.data.node_id;
    expect(created.body.data).toMatchObject({ name: 'node-9', endpoint: 'http://127.0.0.1:4209', status: 'ACTIVE', active_wallet_share_count: 0 });
    expect((await post('/ks_node/create_ks_node', { name: 'node-9', endpoint: 'http://x:1' })).body.code).toBe('KS_NODE_ALREADY_EXISTS');

    const list = await post('/ks_node/get_all_ks_nodes');
    expect(list.body.data.nodes.map((n: { name: string }) => n.name)).toContain('node-9');

    const updated = await post('/ks_node/update_ks_node', { node_id: id, endpoint: 'https://ks9.example.com' });
    expect(updated.body.data).toMatchObject({ node_id: id, name: 'node-9', endpoint: 'https://ks9.example.com' });
    expect((await post('/ks_node/update_ks_node', { node_id: id, name: 'renamed', endpoint: 'https://a.b' })).body.msg).toBe('Unknown field: name');

    const active = await post('/ks_node/delete_ks_node', { node_id: id });
    expect(active.status).toBe(409);
    expect(active.body).toEqual({ success: false, code: 'KS_NODE_ACTIVE', msg: 'Deactivate the key share node before deleting it' });

    expect((await post('/ks_node/deactivate_ks_node', { node_id: id })).body.data.status).toBe('INACTIVE');
    expect((await post('/ks_node/deactivate_ks_node', { node_id: id })).body.data.status).toBe('INACTIVE');
    expect((await post('/ks_node/activate_ks_node', { node_id: id })).body.data.status).toBe('ACTIVE');
    await post('/ks_node/deactivate_ks_node', { node_id: id });
    expect((await post('/ks_node/delete_ks_node', { node_id: id })).body).toEqual({ success: true, data: { node_id: id } });
    expect(await h.t.db.keyShareNode.count({ where: { id } })).toBe(0);

    for (const path of ['/ks_node/activate_ks_node', '/ks_node/deactivate_ks_node', '/ks_node/delete_ks_node']) {
      const res = await post(path, { node_id: id });
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'KS_NODE_NOT_FOUND']);
    }
    expect((await post('/ks_node/update_ks_node', { node_id: id, endpoint: 'http://a:1' })).body.code).toBe('KS_NODE_NOT_FOUND');
  });

  it.each([
    [{ endpoint: 'http://a:1' }, 'name is required'],
    [{ name: 'Node_1', endpoint: 'http://a:1' }, 'name must be 1 to 63 lower-case letters, digits or dashes'],
    [{ name: 'n1' }, 'endpoint is required'],
    [{ name: 'n1', endpoint: 'ftp://a.example.com' }, 'endpoint must be an http or https URL'],
    [{ name: 'n1', endpoint: 'javascript:alert(1)' }, 'endpoint must be an http or https URL'],
  ])('validates create %j', async (body, msg) => {
    expect((await post('/ks_node/create_ks_node', body)).body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });

  it('validates node ids', async () => {
    expect((await post('/ks_node/activate_ks_node', {})).body.msg).toBe('node_id is required');
    expect((await post('/ks_node/delete_ks_node', { node_id: 'x' })).body.msg).toBe('node_id must be a UUID');
  });
});

describe('TSS activation setting', () => {
  it('defaults to enabled, and turning it off writes the singleton row tss-api reads', async () => {
    expect((await post('/tss/get_activation_setting')).body.data).toEqual({ signing_enabled: true, updated_at: null });
    const off = await post('/tss/update_activation_setting', { signing_enabled: false });
    expect(off.body.data).toEqual({ signing_enabled: false, updated_at: expect.any(String) });
    expect(await h.t.db.tssActivationSetting.findUnique({ where: { id: 1 } })).toMatchObject({ signingEnabled: false });
    expect((await post('/tss/get_activation_setting')).body.data.signing_enabled).toBe(false);
    await post('/tss/update_activation_setting', { signing_enabled: true });
    expect(await h.t.db.tssActivationSetting.count()).toBe(1);
    expect((await post('/tss/get_activation_setting')).body.data.signing_enabled).toBe(true);
  });

  it.each([[{}, 'signing_enabled is required'], [{ signing_enabled: 'false' }, 'signing_enabled must be a boolean'], [{ signing_enabled: 0 }, 'signing_enabled must be a boolean']])(
    'refuses %j',
    async (body, msg) => {
      expect((await post('/tss/update_activation_setting', body)).body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
    },
  );
});

describe('documentation', () => {
  it('documents every mounted route, with a response schema and its security', async () => {
    const { app, openapi } = createApp({ config: loadConfig({ JWT_SECRET }), db: h.t.db });
    const paths = openapi.paths as Record<string, Record<string, { responses: Record<string, { content?: { 'application/json'?: { schema: { properties: { data: unknown } } } } }>; security?: unknown }>>;
    const mounted = listMountedRoutes(app).filter((r) => !r.startsWith('GET /docs'));
    expect(mounted.length).toBeGreaterThan(20);
    for (const route of mounted) {
      const [method, path] = route.split(' ') as [string, string];
      const op = paths[path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[method.toLowerCase()];
      expect([route, op !== undefined]).toEqual([route, true]);
      if (!path.startsWith('/svc_admin/')) continue;
      const ok = op!.responses['200'] ?? op!.responses['201'];
      expect([route, ok?.content?.['application/json']?.schema.properties.data]).not.toEqual([route, { type: 'null' }]);
      if (!path.endsWith('/user/login')) expect([route, op!.security]).toEqual([route, [{ adminJwt: [] }]]);
    }
    const served = await request(app).get('/docs/openapi.json');
    expect(served.body.paths['/svc_admin/v1/customer/create_customer'].post.requestBody.content['multipart/form-data'].schema.properties.logo).toMatchObject({ format: 'binary' });
  });
});
