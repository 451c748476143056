// What Node's HTTP parser refuses before a request exists (the server's `clientError` event),
// answered in the error catalogue's flat shape instead of Node's empty body. Herald's server
// (server/runtime/fast-path.ts) and the test servers use it.
import type { Socket } from 'node:net';
import { REASON_PHRASES } from '@/server/errors/catalogue';
import { MAX_HTTP_HEADER_BYTES } from '@/server/shared/http-limits';

/**
 * Node's parser refused the request before it became one: answer in the flat error shape
 * (431 over the header limit, 408 for a request that did not arrive in time, 400 otherwise)
 * and close, since the connection's framing can no longer be trusted.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 431
      ? `The request line and headers are over ${MAX_HTTP_HEADER_BYTES} bytes`
      : status === 408
        ? 'The request did not arrive in time'
        : 'The request is not valid HTTP/1.1';
  const body = JSON.stringify({ statusCode: status, message, error: REASON_PHRASES[status] ?? 'Error' });
  socket.end(
    `HTTP/1.1 ${status} ${REASON_PHRASES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
