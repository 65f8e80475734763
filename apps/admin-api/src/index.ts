import { openMainDatabase } from '@svc/accounts';
import { createLogger, listen, onShutdown } from '@svc/http';
import { createApp } from './app.js';
import { loadConfig } from './env.js';

const config = loadConfig();
const logger = createLogger('admin-api', config.logLevel);
const database = await openMainDatabase(config.database, (line) => logger.info(line));
const { app } = createApp({ config, db: database.db, logger });
const server = await listen(app, config.port, config.host);
logger.info('listening', { port: server.port });
onShutdown(logger, async () => {
  await server.close();
  await database.close();
});
