import type { Duplex } from 'node:stream';
import { failure, type ErrorCode } from '@svc/envelope';

/**
 * Node's HTTP parser refuses some requests before Express sees them (headers over the size
 * limit, a malformed request line, a header timeout) and by default answers them with an
 * empty body. This answers them in the envelope too, so a client always gets a code.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // As Node's own handler: no answer on a reset socket, nor over a response already under way
  // on it (a keep-alive socket), which the bytes would corrupt.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, code, msg]: [number, string, ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE', 'The request line and headers exceed the size limit']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request was not received in time']
        : [400, 'Bad Request', 'INVALID_REQUEST', 'Malformed HTTP request'];
  const body = JSON.stringify(failure(code, msg));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
