import { createIdTokenVerifier } from '@svc/auth';
import { createLogger, listen, onShutdown } from '@svc/http';
import { createApp } from './app.js';
import { openNodeDatabase } from './kernel/database.js';
import { loadConfig } from './env.js';
import { loadNodeIdentity } from './kernel/identity.js';

const config = loadConfig(process.env);
const logger = createLogger(`keyshare-node ${config.nodeName}`, config.logLevel);
const database = await openNodeDatabase(config.database, config.nodeName, (m) => logger.info(m));
const cipher = config.shareCipher();
const identity = await loadNodeIdentity(database.db, cipher, config.identitySecretKey);
const verifier = createIdTokenVerifier(config.providers);
const { app } = createApp({ config, db: database.db, cipher, identity, verifyIdToken: (token) => verifier.verifyIdToken(token), logger });
const server = await listen(app, config.port, config.host);
logger.info('listening', { port: server.port, node: config.nodeName, identity_public_key: identity.publicKey, providers: verifier.enabled });
onShutdown(logger, async () => {
  await server.close();
  await database.db.$disconnect();
  await database.stop();
});
