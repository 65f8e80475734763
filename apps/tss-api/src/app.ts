import { tokenRevocation } from '@svc/accounts';
import { ServiceJwt, createIdTokenVerifier, type IdTokenVerifier } from '@svc/auth';
import { databaseUnavailableError, pingDb, type PrismaClient } from '@svc/db';
import { createLogger, createServiceApp, type Logger, type RouteDef, type ServiceApp } from '@svc/http';
import type { Mailer } from '@svc/mailer';
import type { ShareCipher } from '@svc/share-cipher';
import type { TssApiConfig } from './env.js';
import { createGuards } from './guards.js';
import { SIGN_PATH, signCompletionRoute } from './modules/sign-completion/routes.js';
import { protocolRateLimits, sharedRateLimit } from './rate-limits.js';
import { apiKeyRepo } from './modules/api-keys/repo.js';
import type { EmailIdTokenIssuer } from './modules/email-login/id-token-issuer.js';
import { stepSessionRepo } from './kernel/ecdsa/step-session-repo.js';
import { ecdsaPoolRepo } from './modules/ecdsa-pool/repo.js';
import { ecdsaPoolRoutes } from './modules/ecdsa-pool/routes.js';
import { ecdsaPoolService } from './modules/ecdsa-pool/service.js';
import { ecdsaPresignRepo } from './modules/ecdsa-presign/repo.js';
import { ecdsaPresignRoutes } from './modules/ecdsa-presign/routes.js';
import { ecdsaPresignService } from './modules/ecdsa-presign/service.js';
import { ecdsaSignRepo } from './modules/ecdsa-sign/repo.js';
import { ecdsaSignRoutes } from './modules/ecdsa-sign/routes.js';
import { ecdsaSignService } from './modules/ecdsa-sign/service.js';
import { ecdsaTriplesRepo } from './modules/ecdsa-triples/repo.js';
import { ecdsaTriplesRoutes } from './modules/ecdsa-triples/routes.js';
import { ecdsaTriplesService } from './modules/ecdsa-triples/service.js';
import { emailLoginRepo } from './modules/email-login/repo.js';
import { emailLoginRoutes } from './modules/email-login/routes.js';
import { emailLoginService } from './modules/email-login/service.js';
import { idTokenWitness } from './kernel/id-token-witness.js';
import { keygenRepo } from './modules/keygen/repo.js';
import { keygenRoutes } from './modules/keygen/routes.js';
import { keygenService } from './modules/keygen/service.js';
import { keyshareRepo } from './modules/keyshare/repo.js';
import { keyshareRoutes } from './modules/keyshare/routes.js';
import { keyshareService } from './modules/keyshare/service.js';
import { recoveryRepo } from './modules/recovery/repo.js';
import { recoveryRoutes } from './modules/recovery/routes.js';
import { recoveryService } from './modules/recovery/service.js';
import { claimSessionState } from './kernel/sessions/claim.js';
import { sessionsRepo } from './kernel/sessions/repo.js';
import { sessionRoutes } from './modules/sessions/routes.js';
import { sessionsService } from './kernel/sessions/service.js';
import { signEd25519Repo } from './modules/sign-ed25519/repo.js';
import { signEd25519Routes } from './modules/sign-ed25519/routes.js';
import { signEd25519Service } from './modules/sign-ed25519/service.js';
import { signingWalletRepo } from './kernel/signing-wallet.js';
import { usersRepo } from './kernel/users-repo.js';
import { userRoutes } from './modules/users/routes.js';
import { usersService } from './modules/users/service.js';

export interface TssApiDeps {
  config: TssApiConfig;
  db: PrismaClient;
  mailer: Mailer;
  /** The email login's ID token signer (createEmailIdTokenIssuer). */
  emailIdTokens: EmailIdTokenIssuer;
  /** Default: built from config.shareCipher. */
  cipher?: ShareCipher;
  logger?: Logger;
}

export interface TssApi extends ServiceApp {
  verifier: IdTokenVerifier;
  jwt: ServiceJwt;
  keyshare: ReturnType<typeof keyshareService>;
}

/** tss-api: /tss/v1 (users, email login, keygen, sessions) and /tss/v2 (Ed25519 signing). No listen. */
export function createApp(deps: TssApiDeps): TssApi {
  const { config, db } = deps;
  const logger = deps.logger ?? createLogger('tss-api', config.logLevel);
  const cipher = deps.cipher ?? config.shareCipher();
  const jwt = new ServiceJwt({ secret: config.jwt.secret, expiresIn: config.jwt.expiresIn });
  const verifier = createIdTokenVerifier({
    ...config.providers,
    ...(config.emailLogin.enabled
      ? { email: { issuer: deps.emailIdTokens.issuer, audience: deps.emailIdTokens.audience, jwks: deps.emailIdTokens.jwks, algorithms: ['ES256', 'EdDSA'] } }
      : {}),
  });
  const revocation = tokenRevocation(db);
  const guards = createGuards({
    apiKeys: apiKeyRepo(db, { cacheSeconds: config.apiKeyCacheSeconds }),
    jwt,
    verifier,
    silentRefreshWindowSeconds: config.jwt.silentRefreshWindowSeconds,
    revoked: revocation,
    limits: protocolRateLimits(db, config.rateLimits),
    logger,
  });

  const users = usersRepo(db);
  const idTokens = idTokenWitness(db);
  const keyshare = keyshareService(keyshareRepo(db), config.keyshare.threshold, { users, idTokens });
  const sessionRows = sessionsRepo(db);
  const sessions = sessionsService(sessionRows);
  const claim = claimSessionState(db);
  const wallets = signingWalletRepo(db);
  const ecdsaDeps = { wallets, steps: stepSessionRepo(db), claim, sessions, sessionsRepo: sessionRows, cipher };
  const ttl = config.tssSessionTtlSeconds;
  const ed25519Routes = signEd25519Routes(signEd25519Service({ repo: signEd25519Repo(db), claim, sessions, cipher, sessionTtlSeconds: config.tssSessionTtlSeconds }), guards);
  // POST /tss/v1/sign completes either family (sign-completion); the one-call forms it wraps (ECDSA, Ed25519) are not mounted on their own.
  const ecdsaRoutes = ecdsaSignRoutes(ecdsaSignService({ ...ecdsaDeps, repo: ecdsaSignRepo(db), sessionTtlSeconds: ttl }), guards);
  const routes = [
    ...userRoutes(usersService(users, keyshare, jwt, revocation, { silentRefreshWindowSeconds: config.jwt.silentRefreshWindowSeconds }), guards),
    ...(config.emailLogin.enabled
      ? emailLoginRoutes(
          emailLoginService(emailLoginRepo(db), deps.mailer, deps.emailIdTokens, {
            codeTtlMinutes: config.emailLogin.codeTtlMinutes,
            maxAttempts: config.emailLogin.maxAttempts,
            serverSecret: config.jwt.secret,
          }),
          deps.emailIdTokens,
          { rateLimit: config.emailLogin.rateLimit, sharedLimit: (options) => sharedRateLimit(db, options) },
        )
      : []),
    ...keyshareRoutes(keyshare, guards),
    ...keygenRoutes(keygenService({ repo: keygenRepo(db), users, keyshare, cipher, jwt, idTokens }), guards),
    ...recoveryRoutes(recoveryService(recoveryRepo(db), cipher), guards),
    ...sessionRoutes(sessions, guards),
    ...ed25519Routes.filter((r) => r.path !== SIGN_PATH),
    ...ecdsaTriplesRoutes(
      ecdsaTriplesService({
        ...ecdsaDeps,
        repo: ecdsaTriplesRepo(db),
        config: { batchMax: config.ecdsa.tripleBatchMax, poolMax: config.ecdsa.triplePoolMax, sessionTtlSeconds: ttl, openSessionsMax: config.tssOpenSessionsMax },
      }),
      guards,
    ),
    ...ecdsaPresignRoutes(
      ecdsaPresignService({ ...ecdsaDeps, repo: ecdsaPresignRepo(db), config: { poolMax: config.ecdsa.presignaturePoolMax, sessionTtlSeconds: ttl, openSessionsMax: config.tssOpenSessionsMax } }),
      guards,
    ),
    ...ecdsaPoolRoutes(ecdsaPoolService({ wallets, repo: ecdsaPoolRepo(db) }), guards),
    ...ecdsaRoutes.filter((r) => r.path !== SIGN_PATH),
    signCompletionRoute(
      {
        ecdsaOneCall: byPath(ecdsaRoutes, SIGN_PATH),
        ed25519OneCall: byPath(ed25519Routes, SIGN_PATH),
        ecdsaStep2: byPath(ecdsaRoutes, '/tss/v1/sign/step2'),
        ed25519Round2: byPath(ed25519Routes, '/tss/v2/sign_ed25519/round2'),
      },
      sessions,
      guards,
    ),
  ];

  const service = createServiceApp({
    name: 'tss-api',
    trustProxy: config.trustProxy,
    classifyError: databaseUnavailableError,
    description:
      'Users and sign-in, email login, keygen, TSS sessions, two-party ECDSA triples/presign/sign (/tss/v1) and Ed25519 FROST signing (/tss/v2). Authentication: docs/auth.md; ' +
      'shapes: docs/api/tss-ed25519.md, docs/api/tss-ecdsa.md.',
    routes,
    logger,
    ready: async () => {
      if (!(await pingDb(db))) throw new Error('database unreachable');
    },
  });
  return { ...service, verifier, jwt, keyshare };
}

function byPath(routes: RouteDef[], path: string): RouteDef {
  const route = routes.find((r) => r.path === path);
  if (!route) throw new Error(`no route ${path}`);
  return route;
}
