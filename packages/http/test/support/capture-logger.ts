import { Writable } from 'node:stream';
import winston from 'winston';

/** A real winston logger writing into an array, so tests can read what was logged. */
export function captureLogger(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger = winston.createLogger({ level, format: winston.format.json(), transports: [new winston.transports.Stream({ stream })] });
  return { logger, lines };
}
