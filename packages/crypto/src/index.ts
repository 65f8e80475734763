export { CryptoError, type CryptoErrorCode } from './errors.js';
