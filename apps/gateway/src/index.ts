import { createLogger, listen, onShutdown } from '@svc/http';
import { createApp } from './app.js';
import { loadConfig } from './env.js';

const config = loadConfig(process.env);
const logger = createLogger('gateway', config.logLevel);
const { app } = createApp({ config, logger });
const server = await listen(app, config.port, config.host);
logger.info('listening', { port: server.port });
onShutdown(logger, () => server.close());
