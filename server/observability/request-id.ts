// Each HTTP request handled by Herald's transports runs under a request id — the client's
// X-Request-Id when it sends a sane one, otherwise a new uuid — echoed in the response's
// X-Request-Id, present on every log line the request causes and recorded with the events it
// writes (so webhook deliveries that follow it log the same id). Its origin (address, browser)
// is kept beside it for the security events it causes.
import { requestIdFrom, withLogContext } from './log';
import { withRequestOrigin } from './request-origin';

export const REQUEST_ID_HEADER = 'X-Request-Id';

export async function withRequestId(req: Request, handle: () => Promise<Response>): Promise<Response> {
  const requestId = requestIdFrom(req.headers);
  const response = await withLogContext({ requestId }, () => withRequestOrigin(req.headers, handle));
  try {
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  } catch {
    // Immutable headers (a response passed through from fetch): copy it.
    const headers = new Headers(response.headers);
    headers.set(REQUEST_ID_HEADER, requestId);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
