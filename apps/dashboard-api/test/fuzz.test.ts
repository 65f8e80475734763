import { listen, type RunningServer } from '@svc/http';
import { campaignFindings, campaignSettings, describeReport, fuzzOpenApi, tableDigest } from '@svc/http/testing';
import { makeCustomer, startHarness, type Harness } from './harness.js';

/*
 * Property-based fuzzing of every route in dashboard-api's OpenAPI document with a real
 * customer JWT (a fresh one per request, so a fuzzed signout does not end the campaign).
 * FUZZ_RUNS (default 300) and FUZZ_SEED select the campaign: `FUZZ_RUNS=20000 pnpm --filter
 * @svc/dashboard-api test:fuzz`.
 */
const { runs: RUNS, seed: SEED } = campaignSettings(300);
const AUTH = '/customer_dashboard/v1/customer/auth';
const KEYS = '/customer_dashboard/v1/customer/api_keys';

describe('dashboard-api fuzz: every route of the OpenAPI document', () => {
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
      const { customer, user, email, key } = await makeCustomer(h);
      // auth_time as a sign-in stamps it, so refresh can answer 200 too.
      const token = () => h.jwt.sign('customer', user.id, { email, customer_id: customer.id, auth_time: Math.floor(Date.now() / 1000) }).token;
      const report = await fuzzOpenApi({
        baseUrl: `http://127.0.0.1:${server.port}`,
        openapi: h.openapi,
        credentials: { customerJwt: () => ({ authorization: `Bearer ${token()}` }) },
        known: { customer_id: [customer.id], email: [email], api_key_id: [key.row.id] },
        skip: ['GET /metrics'],
        tables: {
          digest: tableDigest((sql) => h.t.db.$queryRawUnsafe(sql), ['wallets', 'triple_pool', 'presignature_pool', 'tss_sessions', 'api_keys', 'customer_dashboard_users']),
          writers: {
            customer_dashboard_users: [`POST ${AUTH}/signup`, `POST ${AUTH}/verify_email`, `POST ${AUTH}/reset_password`, `POST ${AUTH}/signin`],
            api_keys: [`POST ${KEYS}/create`, `POST ${KEYS}/update`, `POST ${KEYS}/revoke`],
          },
        },
        runs: RUNS,
        seed: SEED,
      });

      console.log(`dashboard-api fuzz: ${describeReport(report)}`);
      expect(campaignFindings(report, RUNS)).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
    },
    Math.max(120_000, RUNS * 200),
  );
});
