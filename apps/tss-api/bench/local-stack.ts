import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { issueApiKey } from '@svc/auth';
import { startOidcIssuer } from '@svc/auth/testing';
import { freePort, startTestDatabase } from '@svc/db/testing';
import { generateShareKey } from '@svc/share-cipher';

export interface LocalStack {
  url: string;
  /** Process ids of the gateway and tss-api, for their CPU time (@svc/tooling/process-cpu). */
  pids: { gateway: number; tss: number };
  apiKey: string;
  /** One ID token per keygen (Ed25519, then secp256k1) of the same person: an ID token creates wallets once. */
  idTokens: [string, string];
  stop(): Promise<void>;
}

/** Runs an app's src/index.ts in its own process (as `pnpm start` would) and waits for /health. */
async function startApp(entry: string, env: Record<string, string>, port: number): Promise<ChildProcess> {
  // process.execArgv carries tsx's loader, so the child runs TypeScript the same way.
  const child = spawn(process.execPath, [...process.execArgv, entry], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) return child;
    if (Date.now() > deadline) throw new Error(`${entry} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * What a started stack gives the bench, made locally: a throwaway PostgreSQL, tss-api and the
 * gateway as separate processes, a local OIDC issuer for the sign-in, and an API key.
 */
export async function startLocalStack(): Promise<LocalStack> {
  const t = await startTestDatabase();
  const issuer = await startOidcIssuer({ alg: 'ES256', audience: 'bench-client' });
  const issued = issueApiKey();
  const customer = await t.db.customer.create({ data: { label: 'bench', email: `bench-${Date.now()}@example.com` } });
  await t.db.apiKey.create({ data: { customerId: customer.id, keyPrefix: issued.displayPrefix, keyHash: issued.hash, label: 'bench' } });

  const [tssPort, gatewayPort] = [await freePort(), await freePort()];
  const tss = await startApp(
    fileURLToPath(new URL('../src/index.ts', import.meta.url)),
    {
      DATABASE_URL: t.url,
      PORT: String(tssPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-jwt-secret-0123456789-0123456789-abcdef',
      SHARE_ENCRYPTION_KEYS: generateShareKey('bench'),
      GOOGLE_CLIENT_ID: issuer.audience,
      GOOGLE_ISSUER: issuer.issuer,
      GOOGLE_JWKS_URI: issuer.jwksUri,
      EMAIL_LOGIN_ENABLED: 'false',
      // One user fills a pool of 100 presignatures before every phase: a throughput bench, not a limit test.
      TRIPLES_RATE_LIMIT_PER_MINUTE: '100000',
    },
    tssPort,
  );
  const gateway = await startApp(
    fileURLToPath(new URL('../../gateway/src/index.ts', import.meta.url)),
    { PORT: String(gatewayPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', TSS_API_URL: `http://127.0.0.1:${tssPort}` },
    gatewayPort,
  );
  return {
    url: `http://127.0.0.1:${gatewayPort}`,
    pids: { gateway: gateway.pid!, tss: tss.pid! },
    apiKey: issued.key,
    idTokens: await (async (sub: string) => {
      const issue = () => issuer.issue({ sub, email: 'bench@example.com' }, { expiresIn: 3600 });
      return [await issue(), await issue()] as [string, string];
    })(`bench-${Date.now()}`),
    async stop() {
      for (const child of [gateway, tss]) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      await issuer.close();
      await t.stop();
    },
  };
}
