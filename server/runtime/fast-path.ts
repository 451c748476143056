// The API's fast path: Herald's own node:http server (http-server.mjs) hands every request to
// handleFastPath first; API requests (api-routes.ts) are answered here by the same handlers the
// App Router route files export, without Next's request pipeline, whose floor alone costs more
// server CPU than a whole `GET /posts/{id}` (docs/performance.md). Everything else — pages, the
// staff app's tRPC, next-auth, assets, and any API path Next would first redirect or decode —
// goes on to Next's request handler (returns false).
//
// What a handler sees is what Next would hand it: the URL Next builds (protocol, the server's
// own host and port, the raw path), the request headers plus the x-forwarded-* Next adds. Request
// ids, logs and metrics are the handlers' own, so they behave alike on both paths.
//
// It also owns what Node's HTTP parser refuses before any handler runs (clientError): a
// request line or headers over the limit, or bytes HTTP/1.1 cannot parse, are answered in the
// error catalogue's flat shape rather than Node's empty body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { sendWebResponse, toWebRequest } from '@/server/http/node-bridge';
import { answerClientError } from '@/server/http/client-error';
import { errorToResponse } from '@/server/errors/http';
import { log } from '@/server/observability/log';
import { apiRouteFor, methodHandler } from './api-routes';

/** Where instrumentation.ts leaves the fast path for the server entry (Next's compiled handlers). */
export const FAST_PATH_KEY = Symbol.for('herald.fast-path');
/** Set by http-server.mjs: this process is served by Herald's own server, not `next start`. */
export const HERALD_SERVER_KEY = Symbol.for('herald.http-server');

/** Which server answers this process's requests, and whether API requests take the fast path (GET /api/health). */
export function hosting(): { server: 'herald' | 'next'; apiFastPath: boolean } {
  const g = globalThis as Record<symbol, unknown>;
  const herald = g[HERALD_SERVER_KEY] === true;
  return { server: herald ? 'herald' : 'next', apiFastPath: herald && g[FAST_PATH_KEY] !== undefined };
}

export interface FastPath {
  /** Answers an API request and returns true, or returns false for Next to serve. */
  handle(req: IncomingMessage, res: ServerResponse, server: { port: number; hostname?: string }): boolean;
  clientError(err: NodeJS.ErrnoException, socket: Socket): void;
}

const NEXT_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch';

function rawPathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function handle(req: IncomingMessage, res: ServerResponse, server: { port: number; hostname?: string }): boolean {
  const url = req.url ?? '/';
  if (url.includes('\\')) return false; // Next redirects backslashes (308)
  const file = apiRouteFor(rawPathOf(url));
  if (!file) return false;
  const handler = methodHandler(file, req.method ?? 'GET');
  if (!handler) return false;

  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const forwardedProto = req.headers['x-forwarded-proto'];
  const https = forwardedProto ? String(forwardedProto).includes('https') : encrypted;
  // The request headers Next's base server adds when absent.
  req.headers['x-forwarded-host'] ??= req.headers.host ?? server.hostname ?? 'localhost';
  req.headers['x-forwarded-port'] ??= String(server.port);
  req.headers['x-forwarded-proto'] ??= https ? 'https' : 'http';
  if (req.headers['x-forwarded-for'] === undefined && req.socket.remoteAddress) req.headers['x-forwarded-for'] = req.socket.remoteAddress;

  const origin = `${https ? 'https' : 'http'}://${server.hostname ?? 'localhost'}:${server.port}`;
  // Next marks every App Router response as varying on its router headers; so does this path,
  // so a cache in front sees the same answer from both hostings.
  res.setHeader('vary', NEXT_VARY);
  void answer(req, res, handler, origin);
  return true;
}

async function answer(req: IncomingMessage, res: ServerResponse, handler: (r: Request) => Response | Promise<Response>, origin: string): Promise<void> {
  let response: Response;
  try {
    response = await handler(toWebRequest(req, origin));
  } catch (err) {
    // The handlers answer their own errors; this is the last line (e.g. a body stream that broke).
    log.error('http', 'unhandled error on the API fast path', err);
    response = errorToResponse(err);
  }
  try {
    await sendWebResponse(res, response);
  } catch (err) {
    log.warn('http', 'could not finish an API response', err);
    res.destroy();
  }
}

export const fastPath: FastPath = { handle, clientError: answerClientError };

/** Called once per process from instrumentation.ts, inside Next's module graph. */
export function registerFastPath(): void {
  (globalThis as Record<symbol, unknown>)[FAST_PATH_KEY] = fastPath;
}
