// Responses whose bytes Herald already holds. A handler answers with a Web `Response` (what
// the App Router route files must return), but reading that Response's body back is a stream
// read: on Herald's own server (server/runtime/fast-path.ts) it cost more CPU than building
// the answer (docs/performance.md, step 12). So the handlers build these responses here, and
// the node bridge writes the bytes and headers it finds recorded for them, in one write with
// their Content-Length; any other Response is read as before.

export interface KnownResponse {
  status: number;
  /** Lower-cased names, as a Web Response would give them. */
  headers: Record<string, string>;
  body: Buffer | null;
}

const known = new WeakMap<Response, KnownResponse>();

/** The headers with lower-cased names (a later duplicate wins, as Headers.set would). */
export function lowerCased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name.toLowerCase()] = headers[name]!;
  return out;
}

/** A Response of these bytes (or none), its Content-Length set, recorded for the node bridge. */
export function bytesResponse(body: Buffer | null, status: number, headers: Record<string, string>): Response {
  const all = lowerCased(headers);
  if (body) all['content-length'] = String(body.length);
  const response = new Response(body as Uint8Array<ArrayBuffer> | null, { status, headers: all });
  known.set(response, { status, headers: all, body });
  return response;
}

/** JSON as a recorded Response (what `Response.json` would send, with its length). */
export function jsonResponse(value: unknown, status: number, headers: Record<string, string> = {}): Response {
  return bytesResponse(Buffer.from(JSON.stringify(value)), status, { 'content-type': 'application/json', ...headers });
}

/** What was recorded for this Response, if it was built here. */
export function knownResponse(response: Response): KnownResponse | undefined {
  return known.get(response);
}
