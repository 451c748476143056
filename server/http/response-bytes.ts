// Responses whose bytes Herald already holds. A handler answers with a Web `Response` (what
// the App Router route files must return), but reading that Response's body back is a stream
// read: on Herald's own server (server/runtime/fast-path.ts) it cost more CPU than building
// the answer (docs/performance.md, step 12). So the handlers build these responses here, and
// the node bridge writes the bytes it finds recorded for them, in one write with their
// Content-Length; any other Response is read as before. Only the body is recorded: status and
// headers are read from the Response itself, which later layers may still change (the request
// id is added to the headers after the handler returns).

const known = new WeakMap<Response, { body: Buffer | null }>();

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
  known.set(response, { body });
  return response;
}

/** JSON as a recorded Response (what `Response.json` would send, with its length). */
export function jsonResponse(value: unknown, status: number, headers: Record<string, string> = {}): Response {
  return bytesResponse(Buffer.from(JSON.stringify(value)), status, { 'content-type': 'application/json', ...headers });
}

/**
 * Strings written one after another into one buffer, as UTF-8: no joined string is built
 * first (for a large answer, one more copy of it on the heap).
 */
export function utf8Bytes(parts: readonly string[]): Buffer {
  let total = 0;
  for (const part of parts) total += Buffer.byteLength(part);
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const part of parts) at += out.write(part, at);
  return out;
}

/** The bytes recorded for this Response, if it was built here (body null: none). */
export function knownResponse(response: Response): { body: Buffer | null } | undefined {
  return known.get(response);
}
