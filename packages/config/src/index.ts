export { EnvReader, ConfigError } from './env-reader.js';
