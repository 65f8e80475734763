import { openMainDatabase } from '@svc/accounts';
import { createLogger, listen, onShutdown } from '@svc/http';
import { createMailer } from '@svc/mailer';
import { createApp } from './app.js';
import { loadConfig } from './env.js';

const config = loadConfig();
const logger = createLogger('dashboard-api', config.logLevel);
const database = await openMainDatabase(config.database, (line) => logger.info(line));
const mailer = await createMailer(config.mail);
if (mailer.devServer) logger.info('no SMTP_HOST: mail goes to the in-process SMTP server', { port: mailer.devServer.port, spool: config.mail.devSpoolDir });
const { app } = createApp({ config, db: database.db, mailer, logger });
const server = await listen(app, config.port, config.host);
logger.info('listening', { port: server.port });
onShutdown(logger, async () => {
  await server.close();
  await mailer.close();
  await database.close();
});
