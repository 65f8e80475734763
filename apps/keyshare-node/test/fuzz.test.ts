import { campaignFindings, campaignSettings, describeReport, fuzzOpenApi, tableDigest } from '@svc/http/testing';
import type { LocalOidcIssuer } from '@svc/auth/testing';
import { sssNodeXCoordinate, toHex } from '@svc/crypto';
import { IdTokenSession, KeyshareNodeClient } from '@svc/keyshare-client';
import { startTestNodes, type TestNodes } from '../src/testing.js';
import { randomEd25519Key, startLogin } from './support/fixtures.js';

/*
 * Property-based fuzzing of every route in a key share node's OpenAPI document, with
 * requests signed by a committed ID-token session like the SDK's (the signature covers the
 * body as generated). FUZZ_RUNS (default 300) and FUZZ_SEED select the campaign:
 * `FUZZ_RUNS=20000 pnpm --filter @svc/keyshare-node test:fuzz`.
 */
const { runs: RUNS, seed: SEED } = campaignSettings(300);
const MANY = String(10 * RUNS + 1000);

describe('keyshare-node fuzz: every route of the OpenAPI document', () => {
  let login: Awaited<ReturnType<typeof startLogin>> & { issuer: LocalOidcIssuer };
  let nodes: TestNodes;

  beforeAll(async () => {
    login = await startLogin();
    // Rate limits far above the campaign, so requests reach validation and the handlers.
    const env = Object.fromEntries(['GLOBAL', 'INFO', 'COMMIT', 'CHECK', 'KEYSHARE'].map((n) => [`KS_RATE_LIMIT_${n}_PER_MINUTE`, MANY]));
    nodes = await startTestNodes({ names: ['node-1'], verifyIdToken: login.verifyIdToken, env });
  }, 120_000);
  afterAll(async () => {
    await nodes.stop();
    await login.issuer.close();
  });

  it(
    `${RUNS} hostile requests (seed ${SEED}): 0 x 5xx, all in the envelope, secret tables untouched by non-writers`,
    async () => {
      const node = nodes.node('node-1');
      const client = new KeyshareNodeClient(node);
      const session = IdTokenSession.create(await login.issuer.issue({ sub: `fuzz-${Date.now()}` }));
      await client.commit(session);
      const publicKey = randomEd25519Key();
      await client.register(session, { curve: 'ed25519', publicKey }, toHex(Uint8Array.from([...new Array(33).fill(7), sssNodeXCoordinate('node-1')])));
      const openapi = (await (await fetch(`${node.endpoint}/docs/openapi.json`)).json()) as Record<string, unknown>;

      const report = await fuzzOpenApi({
        baseUrl: node.endpoint,
        openapi,
        credentials: {},
        sign: ({ method, path, body }) => session.signedHeaders('node-1', method, path, body.toString()),
        known: { public_key: [publicKey], id_token_hash: [session.commitKey], curve_type: ['ed25519'] },
        skip: ['GET /metrics'],
        tables: {
          digest: tableDigest((sql) => node.db.$queryRawUnsafe(sql), ['key_shares', 'node_identity', 'id_token_commits']),
          writers: { key_shares: ['POST /keyshare/v1/register'], id_token_commits: ['POST /commit/v1/id-token'] },
        },
        runs: RUNS,
        seed: SEED,
      });

      console.log(`keyshare-node fuzz: ${describeReport(report)}`);
      expect(campaignFindings(report, RUNS)).toEqual([]);
      expect((await fetch(`${node.endpoint}/health`)).status).toBe(200);
    },
    Math.max(120_000, RUNS * 200),
  );
});
