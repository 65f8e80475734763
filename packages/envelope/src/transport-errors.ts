import { AppError } from './app-error.js';

/** An error of body parsing (body-parser, raw-body) or routing: http-errors style. */
type HttpLikeError = Error & { type?: string; status?: unknown; statusCode?: unknown };

/**
 * The answer to an error that Express, its router or the body parser raised with a 4xx
 * status: the client sent something unreadable, so it gets a 4xx, never a 500. The msg is
 * ours, not the library's (which may quote the request back).
 */
export function transportError(err: unknown): AppError | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as HttpLikeError;
  switch (e.type) {
    case 'entity.parse.failed':
      return new AppError('INVALID_REQUEST', 'Malformed JSON body');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body exceeds the 10 MB limit');
    case 'encoding.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Encoding (accepted: identity, gzip, deflate, br)');
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported charset (accepted: utf-8)');
    case 'request.aborted':
      return new AppError('INVALID_REQUEST', 'Request aborted');
  }
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (status === undefined || status < 400 || status > 499) return undefined;
  // The router raises URIError (status 400) for a path parameter that is not valid percent-encoding.
  if (err instanceof URIError) return new AppError('INVALID_REQUEST', 'Malformed percent-encoding in the URL path');
  switch (status) {
    case 413:
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body too large');
    case 415:
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type');
    case 404:
      return new AppError('NOT_FOUND', 'Not found');
    default:
      // e.g. a body sent with Content-Encoding: gzip that is not gzip ("incorrect header check").
      return new AppError('INVALID_REQUEST', 'Request body could not be read (check Content-Type, Content-Encoding and Content-Length)');
  }
}
