// The whole wallet stack in-process, on 127.0.0.1 ephemeral ports, for end-to-end tests of
// any package: real PostgreSQL (@svc/db/testing: main database + one per key share node), the
// real in-process SMTP server, a local OIDC issuer (as the Google provider), tss-api, admin-api
// and dashboard-api, the gateway in front of them, and three key share nodes (threshold 2).
// Import it from here rather than copying the setup.
import { createApp as createAdminApi } from '@svc/admin-api/app';
import { loadConfig as loadAdminConfig } from '@svc/admin-api/env';
import { createIdTokenVerifier, issueApiKey, type VerifiedIdentity } from '@svc/auth';
import { startOidcIssuer, type LocalOidcIssuer } from '@svc/auth/testing';
import { freePort, startTestDatabase, type TestDatabase } from '@svc/db/testing';
import { createApp as createGateway } from '@svc/gateway/app';
import { createApp as createDashboardApi } from '@svc/dashboard-api/app';
import { loadConfig as loadDashboardConfig } from '@svc/dashboard-api/env';
import { loadConfig as loadGatewayConfig } from '@svc/gateway/env';
import { createLogger, listen, type RunningServer } from '@svc/http';
import { startTestNodes, type TestNodes } from '@svc/keyshare-node/testing';
import { createMailer, type Mailer } from '@svc/mailer';
import { generateShareKey } from '@svc/share-cipher';
import { createApp as createTssApi, type TssApi } from '@svc/tss-api/app';
import { createEmailIdTokenIssuer, generateEmailIdTokenKey } from '@svc/tss-api/email-id-tokens';
import { loadConfig as loadTssConfig } from '@svc/tss-api/env';

export const STACK_JWT_SECRET = 'client-sdk-stack-jwt-secret-long-enough-0123456789';

export interface Stack {
  /** http://127.0.0.1:<port> of the gateway: what the SDK is configured with. */
  gatewayUrl: string;
  /** tss-api itself (behind the gateway). */
  tssApiUrl: string;
  apiKey: string;
  customerId: string;
  db: TestDatabase['db'];
  tss: TssApi;
  nodes: TestNodes;
  /** The key share node list as user/check reports it. */
  nodeRefs: { name: string; endpoint: string }[];
  threshold: number;
  google: LocalOidcIssuer;
  mailer: Mailer;
  /** The one-time code of the latest mail sent to `email` (waits for mail number `count`). */
  emailCode(email: string, count?: number): Promise<string>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Extra tss-api variables (e.g. JWT_EXPIRES_IN). */
  tssEnv?: Record<string, string>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const logger = createLogger('client-sdk-stack', 'silent');
  const [t, google, mailer, privateJwk, gatewayPort] = await Promise.all([
    startTestDatabase(),
    startOidcIssuer({ alg: 'RS256', audience: 'google-client-id' }),
    createMailer({ from: 'wallet@stack.test' }),
    generateEmailIdTokenKey(),
    freePort(),
  ]);
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;

  // Nodes first (tss-api must know their endpoints); they verify ID tokens with the same
  // issuers as tss-api, bound once the email issuer exists.
  let verifyNodeToken: (token: string) => Promise<VerifiedIdentity> = () => Promise.reject(new Error('stack not ready'));
  const nodes = await startTestNodes({
    names: ['node-1', 'node-2', 'node-3'],
    verifyIdToken: (token) => verifyNodeToken(token),
    server: { createDatabase: (name, o) => t.createDatabase(name, o), stop: async () => {} },
  });
  const nodeRefs = nodes.nodes.map((n) => ({ name: n.name, endpoint: n.endpoint }));

  const config = loadTssConfig({
    LOG_LEVEL: 'silent',
    JWT_SECRET: STACK_JWT_SECRET,
    SHARE_ENCRYPTION_KEYS: generateShareKey('k1'),
    PUBLIC_URL: gatewayUrl,
    GOOGLE_CLIENT_ID: google.audience,
    GOOGLE_ISSUER: google.issuer,
    GOOGLE_JWKS_URI: google.jwksUri,
    KEYSHARE_NODES: nodeRefs.map((n) => `${n.name}=${n.endpoint}`).join(','),
    KEYSHARE_THRESHOLD: '2',
    EMAIL_ID_TOKEN_PRIVATE_KEY: JSON.stringify(privateJwk),
    EMAIL_CODE_RATE_LIMIT_PER_IP: '1000',
    // One email signs in many times across a test file (each a code): the per-email limit is tss-api's own tests' concern.
    EMAIL_CODE_RATE_LIMIT_PER_EMAIL: '1000',
    ...options.tssEnv,
  });
  const emailIdTokens = await createEmailIdTokenIssuer({
    issuer: `${config.publicUrl}/tss/v1`,
    audience: config.emailLogin.audience,
    ttlSeconds: config.emailLogin.idTokenTtlSeconds,
    ...(config.emailLogin.privateJwk ? { privateJwk: config.emailLogin.privateJwk } : {}),
  });
  const verifier = createIdTokenVerifier({
    google: { issuer: google.issuer, audience: google.audience, jwksUri: google.jwksUri },
    email: { issuer: emailIdTokens.issuer, audience: emailIdTokens.audience, jwks: emailIdTokens.jwks, algorithms: ['ES256', 'EdDSA'] },
  });
  verifyNodeToken = (token) => verifier.verifyIdToken(token);

  const tss = createTssApi({ config, db: t.db, mailer, emailIdTokens, logger });
  await tss.keyshare.seedNodes(config.keyshare.nodes);
  const tssServer: RunningServer = await listen(tss.app, 0, '127.0.0.1');
  const tssApiUrl = `http://127.0.0.1:${tssServer.port}`;
  const accountEnv = { LOG_LEVEL: 'silent', JWT_SECRET: STACK_JWT_SECRET, DATABASE_URL: t.url };
  const admin = createAdminApi({ config: loadAdminConfig(accountEnv), db: t.db, logger });
  const dashboard = createDashboardApi({ config: loadDashboardConfig(accountEnv), db: t.db, mailer, logger });
  const [adminServer, dashboardServer] = await Promise.all([listen(admin.app, 0, '127.0.0.1'), listen(dashboard.app, 0, '127.0.0.1')]);
  const gateway = createGateway({
    config: loadGatewayConfig({
      PORT: String(gatewayPort),
      LOG_LEVEL: 'silent',
      TSS_API_URL: tssApiUrl,
      ADMIN_API_URL: `http://127.0.0.1:${adminServer.port}`,
      DASHBOARD_API_URL: `http://127.0.0.1:${dashboardServer.port}`,
    }),
    logger,
  });
  const gatewayServer = await listen(gateway.app, gatewayPort, '127.0.0.1');

  const issued = issueApiKey();
  const customer = await t.db.customer.create({ data: { label: 'SDK test app', email: `sdk-${Date.now()}@example.com` } });
  await t.db.apiKey.create({ data: { customerId: customer.id, keyPrefix: issued.displayPrefix, keyHash: issued.hash, label: 'sdk' } });

  return {
    gatewayUrl,
    tssApiUrl,
    apiKey: issued.key,
    customerId: customer.id,
    db: t.db,
    tss,
    nodes,
    nodeRefs,
    threshold: 2,
    google,
    mailer,
    async emailCode(email, count = 1) {
      const mail = await mailer.devServer!.waitFor(email, count, 10_000);
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
      if (!code) throw new Error(`no code in the mail to ${email}`);
      return code;
    },
    async stop() {
      await gatewayServer.close(0);
      await Promise.all([tssServer.close(0), adminServer.close(0), dashboardServer.close(0)]);
      await nodes.stop();
      await Promise.all([google.close(), mailer.close()]);
      await t.stop();
    },
  };
}

