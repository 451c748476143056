// What Node's HTTP parser refuses before a request exists (the server's `clientError` event),
// answered in the error catalogue's flat shape instead of Node's empty body. Herald's server
// (server/runtime/fast-path.ts) and the test servers use it.
import type { Socket } from 'node:net';
import { AppError } from '@/server/errors/app-error';
import { REASON_PHRASES, type ErrorCode } from '@/server/errors/catalogue';
import { appErrorResponse } from '@/server/errors/http';
import { MAX_HTTP_HEADER_BYTES } from '@/server/shared/http-limits';

/** The catalogue's code for each refusal, and what the answer says. */
function refusal(err: NodeJS.ErrnoException): { code: ErrorCode; message: string } {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return { code: 'REQUEST_HEADER_FIELDS_TOO_LARGE', message: `The request line and headers are over ${MAX_HTTP_HEADER_BYTES} bytes` };
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' };
  return { code: 'MALFORMED_REQUEST', message: 'The request is not valid HTTP/1.1' };
}

/**
 * Node's parser refused the request before it became one: answer in the flat error shape
 * (431 over the header limit, 408 for a request that did not arrive in time, 400 otherwise),
 * built by the same mapping as every other error, and close, since the connection's framing
 * can no longer be trusted.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { code, message } = refusal(err);
  const { status, body: answer } = appErrorResponse(new AppError(code, message));
  const body = JSON.stringify(answer);
  socket.end(
    `HTTP/1.1 ${status} ${REASON_PHRASES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
