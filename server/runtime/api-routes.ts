// The API's route files in one table: what each path serves, method by method. The App Router
// route files under app/ export these same handlers (the serverless hosting), and Herald's own
// server (fast-path.ts) calls them straight from node:http (`npm start`, the container image):
// one table, so both hostings answer the same requests with the same functions.
//
// Next's routing rules hold here too: a static route beats the catch-all (the document, the
// tool endpoint and its setup page before `/public/v1/[...path]`), and a route file answers a
// method it does not export the way Next's App Router does (autoImplementMethods): HEAD runs
// GET, OPTIONS answers 204 with Allow, anything else 405 with no body.
import { getOpenApiDocument } from '@/server/http/openapi';
import { handleLinkRedirect } from '@/server/http/link-redirect';
import { handleNetworkWebhook, handleNetworkWebhookCheck } from '@/server/network-webhooks/receive-webhook';
import { handlePublicApi } from '@/server/http/rest-handler';
import { handleMcp } from '@/server/mcp/endpoint';
import { handleMcpSetup } from '@/server/mcp/setup';
import {
  handleAuthorizationServerMetadata,
  handleOAuthPreflight,
  handleProtectedResourceMetadata,
  handleRegister,
  handleRevoke,
  handleToken,
} from '@/server/oauth/http';

export type RouteHandler = (req: Request) => Response | Promise<Response>;
export const HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type RouteFile = Partial<Record<HttpMethod, RouteHandler>>;

const openApiDocument: RouteHandler = () => Response.json(getOpenApiDocument(), { headers: { 'Cache-Control': 'public, max-age=300' } });

export const API_ROUTE_FILES = {
  /** app/public/v1/[...path] */
  // OPTIONS is the facade's own: Next's automatic answer would advertise every exported
  // method (HEAD and PUT included) on every path, whatever the route table serves there.
  rest: { GET: handlePublicApi, POST: handlePublicApi, PATCH: handlePublicApi, PUT: handlePublicApi, DELETE: handlePublicApi, OPTIONS: handlePublicApi },
  /** app/public/v1/openapi.json */
  openApi: { GET: openApiDocument },
  /** app/public/v1/mcp */
  mcp: { GET: handleMcp, POST: handleMcp, DELETE: handleMcp, OPTIONS: handleMcp },
  /** app/public/v1/mcp/setup */
  mcpSetup: { GET: handleMcpSetup },
  /** app/oauth/token, register, revoke */
  oauthToken: { POST: handleToken, OPTIONS: handleOAuthPreflight },
  oauthRegister: { POST: handleRegister, OPTIONS: handleOAuthPreflight },
  oauthRevoke: { POST: handleRevoke, OPTIONS: handleOAuthPreflight },
  /** app/.well-known/oauth-authorization-server/[[...path]], oauth-protected-resource/[[...path]] */
  authorizationServerMetadata: { GET: handleAuthorizationServerMetadata, OPTIONS: handleOAuthPreflight },
  protectedResourceMetadata: { GET: handleProtectedResourceMetadata, OPTIONS: handleOAuthPreflight },
  /** app/l/[code]: tracked links' short links */
  shortLink: { GET: handleLinkRedirect },
  /** app/hooks/[network]: the networks' own webhooks (Meta, X, Google) */
  networkWebhook: { GET: handleNetworkWebhookCheck, POST: handleNetworkWebhook },
} satisfies Record<string, RouteFile>;

const EXACT: Record<string, RouteFile> = {
  '/public/v1/openapi.json': API_ROUTE_FILES.openApi,
  '/public/v1/mcp': API_ROUTE_FILES.mcp,
  '/public/v1/mcp/setup': API_ROUTE_FILES.mcpSetup,
  '/oauth/token': API_ROUTE_FILES.oauthToken,
  '/oauth/register': API_ROUTE_FILES.oauthRegister,
  '/oauth/revoke': API_ROUTE_FILES.oauthRevoke,
  '/.well-known/oauth-authorization-server': API_ROUTE_FILES.authorizationServerMetadata,
  '/.well-known/oauth-protected-resource': API_ROUTE_FILES.protectedResourceMetadata,
};

/** Optional catch-alls: the path itself and anything under it. */
const OPTIONAL_CATCH_ALL: [string, RouteFile][] = [
  ['/.well-known/oauth-authorization-server/', API_ROUTE_FILES.authorizationServerMetadata],
  ['/.well-known/oauth-protected-resource/', API_ROUTE_FILES.protectedResourceMetadata],
];

/**
 * The route file Next would route this raw path to, or null for anything else — and for any
 * path Next would first rewrite, redirect or decode (a trailing or doubled slash, a dot
 * segment, a percent sign): those stay with Next, so its answer is the one both hostings give.
 */
export function apiRouteFor(rawPath: string): RouteFile | null {
  if (rawPath.length < 2 || rawPath.endsWith('/') || rawPath.includes('%') || rawPath.includes('//') || /\/\.\.?(\/|$)/.test(rawPath)) return null;
  const exact = EXACT[rawPath];
  if (exact) return exact;
  for (const [prefix, file] of OPTIONAL_CATCH_ALL) if (rawPath.startsWith(prefix)) return file;
  if (rawPath.startsWith('/public/v1/')) return API_ROUTE_FILES.rest;
  // /hooks/{network}: one segment, like /l/{code}.
  if (rawPath.startsWith('/hooks/') && rawPath.indexOf('/', 7) === -1) return API_ROUTE_FILES.networkWebhook;
  // /l/{code}: one segment (Next's dynamic segment would not match /l or /l/a/b).
  if (rawPath.startsWith('/l/') && rawPath.indexOf('/', 3) === -1) return API_ROUTE_FILES.shortLink;
  return null;
}

const methodNotAllowed: RouteHandler = () => new Response(null, { status: 405 });

/** The handler for one method of a route file, completed the way Next's App Router completes it. */
export function methodHandler(file: RouteFile, method: string): RouteHandler | null {
  if (!(HTTP_METHODS as readonly string[]).includes(method)) return null;
  const own = file[method as HttpMethod];
  if (own) return own;
  if (method === 'HEAD' && file.GET) return file.GET;
  if (method === 'OPTIONS') {
    const implemented = new Set(HTTP_METHODS.filter((m) => file[m]));
    const allow = ['OPTIONS', ...implemented];
    if (!implemented.has('HEAD') && implemented.has('GET')) allow.push('HEAD');
    const headers = { Allow: allow.sort().join(', ') };
    return () => new Response(null, { status: 204, headers });
  }
  return methodNotAllowed;
}
