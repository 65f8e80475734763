import { createDb, prepareDatabase } from '@svc/db';
import { createLogger, listen, onShutdown } from '@svc/http';
import { createMailer } from '@svc/mailer';
import { createApp } from './app.js';
import { loadConfig } from './env.js';
import { createEmailIdTokenIssuer } from './modules/email-login/id-token-issuer.js';
import { startExpirySweeper } from './modules/sessions/expiry-sweeper.js';
import { sessionsRepo } from './kernel/sessions/repo.js';

const config = loadConfig(process.env);
const logger = createLogger('tss-api', config.logLevel);
const database = await prepareDatabase({ ...config.database, log: (line) => logger.info(line) });
const db = createDb(database.url, config.database.pool);
const mailer = await createMailer(config.mail);
if (config.emailLogin.enabled && !config.emailLogin.privateJwk) {
  logger.warn('EMAIL_ID_TOKEN_PRIVATE_KEY is not set: email ID tokens are signed with an ephemeral key (one replica, lost on restart)');
}
const emailIdTokens = await createEmailIdTokenIssuer({
  issuer: `${config.publicUrl}/tss/v1`,
  audience: config.emailLogin.audience,
  ttlSeconds: config.emailLogin.idTokenTtlSeconds,
  ...(config.emailLogin.privateJwk ? { privateJwk: config.emailLogin.privateJwk } : {}),
});
const { app, keyshare, verifier } = createApp({ config, db, mailer, emailIdTokens, logger });
await keyshare.seedNodes(config.keyshare.nodes);
const server = await listen(app, config.port, config.host);
logger.info('listening', { port: server.port, login_providers: verifier.enabled });
const sweeper = startExpirySweeper(sessionsRepo(db), logger, { intervalMs: config.tssSessionSweepSeconds * 1000 });
onShutdown(logger, async () => {
  sweeper.stop();
  await server.close();
  await mailer.close();
  await db.$disconnect();
  await database.stop();
});
