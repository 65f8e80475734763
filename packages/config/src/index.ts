export { EnvReader, ConfigError, type TrustProxy } from './env-reader.js';
