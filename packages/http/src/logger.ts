import winston from 'winston';

export type Logger = winston.Logger;

/**
 * JSON logs on stdout, one object a line, so that any collector can parse them. Fields:
 * timestamp, level, service, message, and whatever metadata the call adds (request_id...).
 */
export function createLogger(service: string, level = 'info'): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console({ silent: level === 'silent' })],
  });
}
