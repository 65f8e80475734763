import { listen, type RunningServer } from '@svc/http';
import { campaignFindings, campaignSettings, describeReport, fuzzOpenApi, tableDigest } from '@svc/http/testing';
import { makeCustomer, startHarness, type Harness } from './harness.js';

/*
 * Property-based fuzzing of every route in admin-api's OpenAPI document with a real admin
 * JWT (a fresh one per request, so a fuzzed logout does not end the campaign). FUZZ_RUNS
 * (default 300) and FUZZ_SEED select the campaign: `FUZZ_RUNS=20000 pnpm --filter
 * @svc/admin-api test:fuzz`.
 */
const { runs: RUNS, seed: SEED } = campaignSettings(300);
const P = '/svc_admin/v1';

describe('admin-api fuzz: every route of the OpenAPI document', () => {
  let h: Harness;
  let server: RunningServer;

  beforeAll(async () => {
    h = await startHarness();
    server = await listen(h.app, 0, '127.0.0.1');
  }, 120_000);
  afterAll(async () => {
    await server.close(0);
    await h.stop();
  });

  it(
    `${RUNS} hostile requests (seed ${SEED}): 0 x 5xx, all in the envelope, secret tables untouched by non-writers`,
    async () => {
      const customer = await makeCustomer(h);
      const node = await h.t.db.keyShareNode.create({ data: { name: 'fuzz-node', endpoint: 'http://127.0.0.1:1' } });
      const report = await fuzzOpenApi({
        baseUrl: `http://127.0.0.1:${server.port}`,
        openapi: h.openapi,
        credentials: { adminJwt: () => ({ authorization: `Bearer ${h.jwt.sign('admin', h.adminId, { email: 'root@example.com' }).token}` }) },
        known: {
          customer_id: [customer.customer_id],
          api_key_id: [customer.api_key.api_key_id],
          node_id: [node.id],
          email: ['root@example.com'],
        },
        skip: ['GET /metrics'],
        tables: {
          digest: tableDigest((sql) => h.t.db.$queryRawUnsafe(sql), ['wallets', 'triple_pool', 'presignature_pool', 'tss_sessions', 'api_keys', 'admin_users']),
          writers: {
            api_keys: [`POST ${P}/customer/create_api_key`, `POST ${P}/customer/revoke_api_key`, `POST ${P}/customer/create_customer`, `POST ${P}/customer/delete_customer`],
          },
        },
        runs: RUNS,
        seed: SEED,
      });

      console.log(`admin-api fuzz: ${describeReport(report)}`);
      expect(campaignFindings(report, RUNS)).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
    },
    Math.max(120_000, RUNS * 200),
  );
});
