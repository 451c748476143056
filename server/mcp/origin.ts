// The tool endpoint's Origin rule (the Streamable HTTP transport requires it against DNS
// rebinding: a page on another site must not reach a local or internal Herald through the
// visitor's browser). A request that carries an Origin is served only when that origin is
// Herald's own (HERALD_BASE_URL) or on MCP_ALLOWED_ORIGINS; a request without one comes from
// a non-browser client (desktop assistants, mcp-remote, SDKs) and is served as before.
// Allowed browser origins get CORS headers on every answer, refusals included, so a web
// client can read why it was refused.
import { env } from '@/server/config/env';

const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Content-Type, Authorization, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Idempotency-Key, X-Service-Workspace';
const EXPOSED_HEADERS = 'Mcp-Session-Id, WWW-Authenticate, Retry-After';

/** `https://x.example:443/` and `https://x.example` are one origin; an unparsable value matches nothing. */
function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

export function allowedOrigins(): Set<string> {
  return new Set([env.baseUrl(), ...env.mcpAllowedOrigins()].flatMap((o) => originOf(o) ?? []));
}

export type OriginCheck = { allowed: true; cors: Record<string, string> } | { allowed: false; origin: string };

export function checkOrigin(req: Request): OriginCheck {
  const origin = req.headers.get('origin');
  if (origin === null) return { allowed: true, cors: {} };
  const normalised = originOf(origin);
  if (!normalised || !allowedOrigins().has(normalised)) return { allowed: false, origin };
  return {
    allowed: true,
    cors: {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': ALLOWED_METHODS,
      'Access-Control-Allow-Headers': ALLOWED_HEADERS,
      'Access-Control-Expose-Headers': EXPOSED_HEADERS,
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    },
  };
}
