export { ERROR_STATUS, statusOf, isErrorCode, type ErrorCode } from './codes.js';
export { AppError } from './app-error.js';
export { success, failure, type Envelope, type SuccessEnvelope, type ErrorEnvelope } from './envelope.js';
export { errorHandler, notFoundHandler, GENERIC_ERROR_MSG, type ErrorLogger, type ErrorClassifier } from './error-handler.js';
export { describeError } from './redact.js';
