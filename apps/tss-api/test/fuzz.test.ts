import { campaignFindings, campaignSettings, describeReport, fuzzOpenApi, tableDigest } from '@svc/http/testing';
import { tripleGenClientStart } from '@svc/crypto/ecdsa';
import { fillPool } from './support/ecdsa-client.js';
import { createEcdsaUser, via } from './support/ecdsa-user.js';
import { startHarness, type Harness } from './support/harness.js';
import { post } from './support/wallet-client.js';
import { createWalletUser } from './support/wallet-user.js';

/*
 * Property-based fuzzing of every route in tss-api's OpenAPI document (so of every mounted
 * route, including later ones) with real credentials: no 5xx, every answer in the envelope,
 * secret-bearing tables changed only by the routes that write them. FUZZ_RUNS (default 250,
 * under a minute) and FUZZ_SEED select the campaign: `FUZZ_RUNS=20000 pnpm --filter
 * @svc/tss-api test:fuzz`.
 */
const { runs: RUNS, seed: SEED } = campaignSettings(250);

const SESSION_WRITERS = [
  'POST /tss/v1/triples',
  'POST /tss/v1/presign',
  'POST /tss/v1/sign',
  'POST /tss/v1/sign/step1',
  'POST /tss/v1/sign/step2',
  'POST /tss/v2/sign_ed25519/round1',
  'POST /tss/v2/sign_ed25519/round2',
  'POST /tss/v1/session/abort',
];

describe('tss-api fuzz: every route of the OpenAPI document', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ TSS_SESSION_TTL_SECONDS: '600' });
  }, 120_000);
  afterAll(() => h.stop());

  it(
    `${RUNS} hostile requests (seed ${SEED}): 0 x 5xx, all in the envelope, secret tables untouched by non-writers`,
    async () => {
      const [ecdsa, ed] = await Promise.all([createEcdsaUser(h), createWalletUser(h)]);
      const presignatures = await fillPool(via(h.baseUrl, ecdsa), ecdsa.key.keyShare, 2);
      // An ACTIVE session to aim at, besides the completed ones.
      await post(h.baseUrl, '/tss/v1/triples', { msg: tripleGenClientStart({ count: 2 }).outgoing }, ecdsa.headers);
      const sessions = await h.t.db.tssSession.findMany({ select: { id: true } });
      const idToken = await h.google.issue({ sub: `fuzz-${Date.now()}`, email: `fuzz-${Date.now()}@example.com` });
      const users = [ecdsa.headers.authorization!, ed.headers.authorization!];
      let turn = 0;

      const report = await fuzzOpenApi({
        baseUrl: h.baseUrl,
        openapi: h.api.openapi,
        credentials: {
          apiKey: () => ({ 'x-api-key': h.apiKey }),
          userJwt: () => ({ authorization: users[turn++ % users.length]! }),
          idToken: () => ({ authorization: `Bearer ${idToken}` }),
        },
        known: {
          session_id: sessions.map((s) => s.id),
          presignature_id: presignatures.map((p) => p.id),
          public_key: [ecdsa.key.keygenBody.public_key],
          email: ['fuzz@example.com'],
        },
        rawSuccess: ['GET /tss/v1/.well-known/jwks.json', 'GET /tss/v1/.well-known/openid-configuration'],
        skip: ['GET /metrics'],
        tables: {
          digest: tableDigest((sql) => h.t.db.$queryRawUnsafe(sql), ['wallets', 'triple_pool', 'presignature_pool', 'tss_sessions']),
          writers: {
            wallets: ['POST /tss/v1/keygen'],
            triple_pool: ['POST /tss/v1/triples', 'POST /tss/v1/presign', 'POST /tss/v1/triples/discard'],
            presignature_pool: ['POST /tss/v1/presign', 'POST /tss/v1/sign', 'POST /tss/v1/sign/step1', 'POST /tss/v1/sign/step2', 'POST /tss/v1/presign/discard'],
            tss_sessions: SESSION_WRITERS,
          },
        },
        runs: RUNS,
        seed: SEED,
      });

      console.log(`tss-api fuzz: ${describeReport(report)}`);
      expect(campaignFindings(report, RUNS)).toEqual([]);
      // The process is still healthy and serves a real user.
      expect((await fetch(`${h.baseUrl}/health`)).status).toBe(200);
      const check = await fetch(`${h.baseUrl}/tss/v1/user/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': h.apiKey },
        body: JSON.stringify({ email: 'a@b.c' }),
      });
      expect(check.status).toBe(200);
    },
    Math.max(120_000, RUNS * 200),
  );
});
